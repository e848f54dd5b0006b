"""Maps as data: the project's own JSON map files, loaded into frozen, indexed objects.

The file format is documented in docs/maps.md. Everything the engine knows about a board
(cities, tracks, tickets, ticket decks, scoring tables, tie-breaks) comes from here, so a new
map is a new file plus, where its rules differ, a small named hook.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from types import MappingProxyType

from engine.cards import card_index
from engine.errors import UnknownMapError

SCHEMA_VERSION = 1
#: A city's translated names (one line, no braces inside). They are display only, so the map hash
#: that stored games check leaves them out: translating a city never makes a saved game unreplayable.
_CITY_NAMES = re.compile(rb'"names": \{[^{}]*\}')


def fold_name(text: str) -> str:
    """Case-, accent- and punctuation-insensitive key used to look up names players type."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if ch.isalnum())


@dataclass(frozen=True, slots=True)
class City:
    index: int
    id: str
    name: str
    x: float
    y: float
    names: Mapping[str, str] = field(default_factory=dict)
    kind: str = "city"  # "city"; "country" (a ticket destination, no track ends there); "border"
    country: int | None = None  # for a border point: the index of its country


def printed_name(city: City) -> str:
    """A city's name as printed on the board (the default of every label)."""
    return city.name


@dataclass(frozen=True, slots=True)
class Track:
    """One parallel line of a route; a double route is two tracks that name each other."""

    index: int
    id: str
    a: int
    b: int
    color: int | None  # None for gray
    length: int
    tunnel: bool
    ferry: int  # locomotives required (0: not a ferry)
    double: int | None  # index of the partner track
    spaces: tuple[tuple[float, float, float], ...]
    toll: int = 0
    substitute: int = 0  # any this many cards may replace one missing card (Nordic Murmansk-Lieksa: 4)


@dataclass(frozen=True, slots=True)
class Ticket:
    id: int
    a: int
    b: int
    points: int
    long: bool
    set: str
    extra: Mapping[str, object] = field(default_factory=dict)
    #: Tickets to a country or with several destinations (Switzerland): the nodes standing for
    #: `a` (a country's border points), and per destination (place index, its nodes, points).
    #: Empty for an ordinary city-to-city ticket.
    a_nodes: tuple[int, ...] = ()
    destinations: tuple[tuple[int, tuple[int, ...], int], ...] = ()


@dataclass(frozen=True, slots=True)
class TicketDeck:
    """A playable ticket deck with its deal/keep numbers and the bonuses it brings."""

    id: str
    name: str
    tickets: tuple[int, ...]  # ticket ids, in map-file order
    start_deal: int
    start_long: int  # long tickets dealt on top of start_deal (Europe: 1)
    start_keep: int
    draw_count: int
    draw_keep: int
    returned: str  # where returned mid-game tickets go: "box" | "bottom" | "discard"
    start_returned: str  # where rejected starting tickets go
    longest_path_bonus: int
    globetrotter_bonus: int


@dataclass(frozen=True, slots=True)
class MapRules:
    trains: int
    stations: int
    station_costs: tuple[int, ...]
    station_points: int
    route_points: Mapping[int, int]
    doubles_min_players: int
    tie_breaks: tuple[str, ...]
    decks: Mapping[str, TicketDeck]
    default_deck: str
    hooks: tuple[str, ...]
    extra: Mapping[str, object]
    max_players: int = 5


@dataclass(frozen=True, slots=True, eq=False)
class MapData:
    id: str
    name: str
    data_version: int
    sha256: str  # of the file, leaving out the translated city `names` (display only)
    aspect: float  # board width / height
    cities: tuple[City, ...]
    tracks: tuple[Track, ...]
    tickets: tuple[Ticket, ...]
    rules: MapRules
    city_by_id: Mapping[str, City]
    track_by_id: Mapping[str, Track]
    ticket_by_id: Mapping[int, Ticket]
    city_by_name: Mapping[str, City]  # fold_name(id or any name) -> city
    tracks_between: Mapping[tuple[int, int], tuple[Track, ...]]  # (low, high) city index pair
    #: A country's border points (Switzerland): country index -> border city indices.
    borders: Mapping[int, tuple[int, ...]] = field(default_factory=dict)

    def nodes(self, city: int) -> tuple[int, ...]:
        """The track ends a place stands for: a country's border points, else the city itself."""
        return self.borders.get(city, (city,))

    def find_city(self, text: str) -> City | None:
        return self.city_by_name.get(fold_name(text))

    def route_name(self, track: Track, city_name: Callable[[City], str] = printed_name) -> str:
        """'Paris-Dieppe'; `city_name` gives another language's names (the bot's translations)."""
        a, b = self.cities[track.a], self.cities[track.b]
        if a.kind == "border":  # a country's name goes last: 'Schaffhausen-Deutschland'
            a, b = b, a
        return f"{city_name(a)}-{city_name(b)}"


#: Map files that load but are not offered yet (bot, listings, every-map tests), until their rules
#: reach every layer (the bot's controls, the pictures, the terminal game); none today.
UNLISTED: frozenset[str] = frozenset()


@cache
def tracks_at(m: MapData) -> tuple[tuple[Track, ...], ...]:
    """Per city index, the tracks ending there (in map order; built once per map)."""
    return tuple(tuple(t for t in m.tracks if city.index in (t.a, t.b)) for city in m.cities)


def available_maps(include_unlisted: bool = False) -> list[str]:
    names = (p.name.removesuffix(".json") for p in resources.files("engine.maps").iterdir() if p.name.endswith(".json"))
    return sorted(name for name in names if include_unlisted or name not in UNLISTED)


@cache
def load_map(map_id: str) -> MapData:
    """Load a map shipped in engine/maps by id (cached: MapData is immutable)."""
    path = resources.files("engine.maps").joinpath(f"{map_id}.json")
    if not isinstance(map_id, str) or map_id not in available_maps(include_unlisted=True) or not path.is_file():
        raise UnknownMapError(
            "there is no map {map!r} (the maps: {maps})", map=map_id, maps=", ".join(available_maps())
        )
    return parse_map(path.read_bytes())


def parse_map(raw: bytes) -> MapData:
    doc = json.loads(raw)
    if doc.get("schema") != SCHEMA_VERSION:
        raise ValueError(f"map schema {doc.get('schema')!r} is not {SCHEMA_VERSION}")
    index_of = {c["id"]: i for i, c in enumerate(doc["cities"])}
    cities = tuple(
        City(
            i,
            c["id"],
            c["name"],
            float(c["x"]),
            float(c["y"]),
            MappingProxyType(dict(c.get("names", {}))),
            c.get("kind", "city"),
            index_of[c["country"]] if c.get("country") else None,
        )
        for i, c in enumerate(doc["cities"])
    )
    city_by_id = {c.id: c for c in cities}
    borders: dict[int, list[int]] = {}
    for c in cities:
        if c.kind == "border":
            borders.setdefault(c.country, []).append(c.index)
    nodes = {k: tuple(v) for k, v in borders.items()}

    def ticket_places(t: dict) -> tuple[tuple[int, ...], tuple]:
        a = city_by_id[t["a"]].index
        dests = t.get("destinations") or [[t["b"], t["points"]]]
        if len(dests) == 1 and a not in nodes and city_by_id[dests[0][0]].index not in nodes:
            return (), ()  # an ordinary ticket
        out = []
        for place, points in dests:
            p = city_by_id[place].index
            out.append((p, nodes.get(p, (p,)), int(points)))
        return nodes.get(a, (a,)), tuple(out)

    track_index = {t["id"]: i for i, t in enumerate(doc["tracks"])}
    tracks = tuple(
        Track(
            index=i,
            id=t["id"],
            a=city_by_id[t["a"]].index,
            b=city_by_id[t["b"]].index,
            color=None if t["color"] == "gray" else card_index(t["color"]),
            length=int(t["length"]),
            tunnel=bool(t.get("tunnel", False)),
            ferry=int(t.get("ferry", 0)),
            double=track_index[t["double"]] if t.get("double") else None,
            spaces=tuple(tuple(float(v) for v in s) for s in t.get("spaces", ())),
            toll=int(t.get("toll", 0)),
            substitute=int(t.get("substitute", 0)),
        )
        for i, t in enumerate(doc["tracks"])
    )
    tickets = tuple(
        Ticket(
            id=int(t["id"]),
            a=city_by_id[t["a"]].index,
            b=city_by_id[t["b"]].index,
            points=int(t["points"]),
            long=bool(t.get("long", False)),
            set=t.get("set", "base"),
            extra=MappingProxyType(
                {k: v for k, v in t.items() if k not in {"id", "a", "b", "points", "long", "set", "destinations"}}
            ),
            a_nodes=ticket_places(t)[0],
            destinations=ticket_places(t)[1],
        )
        for t in doc["tickets"]
    )
    r = doc["rules"]
    decks = {}
    for d in r["ticket_decks"]:
        touching = {city_by_id[c].index for c in d.get("touching", ())}
        ids = tuple(
            t.id for t in tickets if t.set in d["sets"] and (not touching or t.a in touching or t.b in touching)
        )
        decks[d["id"]] = TicketDeck(
            id=d["id"],
            name=d["name"],
            tickets=ids,
            start_deal=d["start"]["deal"],
            start_long=d["start"].get("long", 0),
            start_keep=d["start"]["keep"],
            draw_count=d["draw"]["deal"],
            draw_keep=d["draw"]["keep"],
            returned=d.get("returned", "box"),
            start_returned=d.get("start_returned", "box"),
            longest_path_bonus=d.get("bonuses", {}).get("longest_path", 0),
            globetrotter_bonus=d.get("bonuses", {}).get("globetrotter", 0),
        )
    rules = MapRules(
        trains=r["trains"],
        stations=r.get("stations", 0),
        station_costs=tuple(r.get("station_costs", ())),
        station_points=r.get("station_points", 0),
        route_points=MappingProxyType({int(k): v for k, v in r["route_points"].items()}),
        doubles_min_players=r.get("doubles_min_players", 4),
        tie_breaks=tuple(r.get("tie_breaks", ("tickets", "longest"))),
        decks=MappingProxyType(decks),
        default_deck=r.get("default_deck", next(iter(decks))),
        hooks=tuple(r.get("hooks", ())),
        extra=MappingProxyType(dict(r.get("extra", {}))),
        max_players=int(r.get("max_players", 5)),
    )
    by_name: dict[str, City] = {}
    for c in cities:
        for name in (c.id, c.name, *c.names.values()):
            by_name.setdefault(fold_name(name), c)
    between: dict[tuple[int, int], list[Track]] = {}
    for t in tracks:
        between.setdefault((min(t.a, t.b), max(t.a, t.b)), []).append(t)
    board = doc.get("board", {})
    return MapData(
        id=doc["id"],
        name=doc["name"],
        data_version=int(doc["data_version"]),
        sha256=hashlib.sha256(_CITY_NAMES.sub(b'"names": {}', raw)).hexdigest(),
        aspect=float(board.get("width", 1.5)) / float(board.get("height", 1.0)),
        cities=cities,
        tracks=tracks,
        tickets=tickets,
        rules=rules,
        city_by_id=MappingProxyType(city_by_id),
        track_by_id=MappingProxyType({t.id: t for t in tracks}),
        ticket_by_id=MappingProxyType({t.id: t for t in tickets}),
        city_by_name=MappingProxyType(by_name),
        tracks_between=MappingProxyType({k: tuple(v) for k, v in between.items()}),
        borders=MappingProxyType(nodes),
    )
