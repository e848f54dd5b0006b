"""Sample views for previews, tests and the benchmark.

`played_view` plays a seeded random game with the engine. `synthetic_view` builds a plausible
spectator view from map data alone, for a map whose rules the engine cannot run yet (Nederland):
same keys as `engine.view.build_view`, random claims that respect double routes and trains
(and, on Märklin, the stacks, passengers, tokens and two ticket decks its rules add).
"""

from __future__ import annotations

import random

from engine.cards import ALL_CARD_NAMES, CARD_NAMES
from engine.mapdata import MapData


def played_game(map_id: str, seats: int = 5, seed: int = 1, plies: int | None = None):
    """A seeded random game (collapsed payments), stopped after `plies` actions or at its end."""
    from engine import Game

    game = Game.new(map_id, seats=seats, seed=seed)
    rng = random.Random(seed)
    n = 0
    while not game.is_over() and (plies is None or n < plies):
        seat = game.to_move()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat, collapse_payments=True)))
        n += 1
    return game


def synthetic_view(m: MapData, seats: int = 5, seed: int = 1, fill: float = 0.8) -> dict:
    """A late-game spectator view: about `fill` of each player's trains placed at random."""
    rng = random.Random(f"{m.id}:{seed}")
    trains = [m.rules.trains] * seats
    claims: dict[str, int] = {}
    taken_pairs: dict[tuple[int, int], set[int]] = {}
    order = list(m.tracks)
    rng.shuffle(order)
    for t in order:
        seat = rng.randrange(seats)
        pair = (min(t.a, t.b), max(t.a, t.b))
        if seat in taken_pairs.get(pair, set()):
            continue
        if trains[seat] - t.length < m.rules.trains * (1 - fill):
            continue
        claims[t.id] = seat
        trains[seat] -= t.length
        taken_pairs.setdefault(pair, set()).add(seat)
    points = m.rules.route_points
    score = [0] * seats
    for tid, seat in claims.items():
        score[seat] += points[m.track_by_id[tid].length]
    stations: dict[str, int] = {}
    for seat in range(seats):
        for _ in range(m.rules.stations and rng.randrange(m.rules.stations + 1)):
            c = rng.choice(m.cities).id
            stations.setdefault(c, seat)
    players = []
    for s in range(seats):
        p = {
            "seat": s,
            "score": score[s],
            "trains": trains[s],
            "stations_left": m.rules.stations - sum(1 for v in stations.values() if v == s),
            "hand_size": rng.randrange(2, 14),
            "tickets": rng.randrange(2, 7),
            "choosing_tickets": False,
            "left": None,
        }
        if "tolls" in m.rules.hooks:
            p["loans"] = rng.choice((0, 0, 0, 1))
        players.append(p)
    extra = _marklin_keys(m, players, rng) if "marklin" in m.rules.hooks else {}
    last_track = next(iter(claims), None)
    colors = list(_cards(m))
    return {
        "schema": 1,
        "rules_version": 1,
        "map": m.id,
        "deck": m.rules.default_deck,
        "viewer": None,
        "phase": "playing",
        "current": 1 % seats,
        "stage": None,
        "to_move": [1 % seats],
        "last_round": min(trains) <= 2,
        "plies": 200,
        "players": players,
        "market": [rng.choice(colors) for _ in range(5)],
        "deck_size": 31,
        "discard_size": 12,
        "ticket_deck_size": 14,
        "ticket_discard": [],
        "claims": claims,
        "stations": stations,
        "tunnel": None,
        "last_action": None
        if last_track is None
        else {
            "seat": claims[last_track],
            "kind": "Claim",
            "track": last_track,
            "text": f"claim {m.route_name(m.track_by_id[last_track])}",
            "color": _color_of(m, last_track),
            "locos": 0,
            "subs": [],
            "numbered": False,
        },
        "recent": None
        if last_track is None
        else [
            {
                "ply": 200,
                "seat": claims[last_track],
                "kind": "Claim",
                "track": last_track,
                "text": f"claim {m.route_name(m.track_by_id[last_track])}",
                "color": _color_of(m, last_track),
                "locos": 0,
                "subs": [],
                "numbered": False,
            }
        ],
        "you": None,
        "final": None,
        **extra,
    }


def _marklin_keys(m: MapData, players: list[dict], rng: random.Random) -> dict:
    """Märklin's view keys (engine/marklin.py): stacks partly taken (some used up), every seat's
    passengers (some waiting on cities, most of them on one, as happens), tokens and the decks."""
    from engine.marklin import deal_dots

    merch = m.rules.extra["merchandise"]
    dots = deal_dots(m, rng)
    stacks = {}
    for c, color in sorted(dots.items()):
        full = list(merch["stacks"][color])  # top first, as the view shows it
        stacks[m.cities[c].id] = {
            "dot": color,
            "stack": full[rng.randrange(len(full) + 1) :] if rng.random() < 0.4 else full,
        }
    cities = sorted(m.cities[c].id for c in dots)
    crowded = rng.choice(cities)
    for p in players:
        placed = [crowded] + rng.sample(cities, rng.randrange(0, int(m.rules.extra["passengers"])))
        p["passengers_placed"] = placed[: int(m.rules.extra["passengers"])]
        p["passengers"] = int(m.rules.extra["passengers"]) - len(p["passengers_placed"])
        p["tokens"] = [
            rng.choice(merch["stacks"][rng.choice(list(merch["stacks"]))]) for _ in range(rng.randrange(0, 9))
        ]
        p["naming_tickets"] = False
    return {"merchandise": stacks, "ticket_decks": {"short": rng.randrange(20, 40), "long": rng.randrange(3, 15)}}


def _cards(m: MapData) -> tuple[str, ...]:
    """The card kinds of the map's deck (Märklin adds the "+4" locomotive and the passenger)."""
    return ALL_CARD_NAMES if "marklin" in m.rules.hooks else CARD_NAMES


def _color_of(m: MapData, track_id: str) -> str:
    """The card color a claim of this track is paid with (red for a gray route)."""
    color = m.track_by_id[track_id].color
    return "red" if color is None else CARD_NAMES[color]


def with_seat(view: dict, m: MapData, seat: int = 0, seed: int = 1, offer: int = 0) -> dict:
    """A synthetic view as seen by one seat: a hand, tickets (some connected) and an offer."""
    rng = random.Random(f"{m.id}:{seed}:{seat}")
    view = dict(view, viewer=seat)
    hand = {k: rng.randrange(0, 4) for k in _cards(m)}
    hand = {k: n for k, n in hand.items() if n}

    def ticket(t):
        out = {"id": t.id, "a": m.cities[t.a].id, "b": m.cities[t.b].id, "points": t.points, "long": t.long}
        if t.destinations:  # as engine.view shows a country ticket
            out["destinations"] = [{"to": m.cities[p].id, "points": v} for p, _, v in t.destinations]
        return out

    deck = list(m.tickets)
    rng.shuffle(deck)
    view["you"] = {
        "seat": seat,
        "hand": hand,
        "tickets": [ticket(t) for t in deck[:4]],
        "offer": [ticket(t) for t in deck[4 : 4 + offer]],
        "keep_at_least": 1 if offer else 0,
        "decision": "x",
    }
    return view


def synthetic_final(view: dict, m: MapData, seed: int = 1) -> dict:
    """A synthetic finished game: final scores and every seat's tickets."""
    from engine.scoring import longest_trail

    rng = random.Random(f"{m.id}:{seed}:final")
    final = []
    for p in view["players"]:
        own = [m.track_by_id[t] for t, s in view["claims"].items() if s == p["seat"]]
        longest, path = longest_trail(own)
        tickets = [
            {"id": t.id, "points": t.points, "completed": rng.random() < 0.5, "via": []}
            for t in rng.sample(list(m.tickets), 4)
        ]
        tp = sum(t["points"] if t["completed"] else -t["points"] for t in tickets)
        final.append(
            {
                "seat": p["seat"],
                "route_points": p["score"],
                "tickets": tickets,
                "ticket_points": tp,
                "borrowed": [],
                "station_points": m.rules.station_points * p["stations_left"],
                "longest": longest,
                "longest_tracks": [t.id for t in path],
                "bonuses": {},
                "total": 0,
                "rank": 0,
            }
        )
    best = max(f["longest"] for f in final)
    for f in final:
        if f["longest"] == best:
            f["bonuses"]["longest_path"] = 10
        f["total"] = f["route_points"] + f["ticket_points"] + f["station_points"] + sum(f["bonuses"].values())
    for f in final:
        f["rank"] = 1 + sum(1 for o in final if o["total"] > f["total"])
    return dict(
        view,
        phase="over",
        current=None,
        to_move=[],
        final=final,
        end_reason="last_round",
        all_tickets=[[] for _ in final],
    )
