"""Determinized playouts: complete one seat's view into a full game state by sampling what it
cannot see, then play the game out with fast policies.

Sampling is consistent with the view: the seat's own hand, tickets and offer, the market, every
claim and station, trains, scores, hand sizes, ticket counts and deck sizes are kept; the unseen
cards (opponents' hands, the deck, the discard pile) are a random split of the cards the seat has
not seen, and opponents' tickets a random draw from the tickets it has not seen. On Märklin the
passengers, their merchandise and the mixes still to name are kept too, and the two ticket
decks dealt from the unseen short and long tickets. On Nederland each opponent's secret money is
what the tolls of its claims tell (`ai/tolls.py`). The seed of the sampled game is the AI's own
random number, so nothing of the real deck order leaks in.
"""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter
from collections.abc import Callable, Sequence

from ai.base import GameInfo, Player, legal_for
from ai.board import Board
from ai.tolls import money_from_claims
from engine import Game
from engine.cards import ALL_CARD_NAMES

CARD_INDEX = {name: i for i, name in enumerate(ALL_CARD_NAMES)}


class CannotSample(Exception):
    """The view does not fit this simple model (a pending tunnel or hook decision, card counts that
    do not add up)."""


def determinize(view: dict, info: GameInfo, rng: random.Random) -> Game:
    m = info.map
    seats = info.seats
    me = info.seat
    if view["tunnel"] is not None or view["stage"] not in (None, "second_card", "tickets"):
        raise CannotSample("pending decision")
    marklin = "marklin" in m.rules.hooks
    fresh = Game.new(m, seats, rng.randrange(1 << 30), info.options)
    template = fresh.to_json()
    state = dict(template)
    players = view["players"]
    you = view["you"]
    # Cards (Märklin's deck has its +4 locomotives and passenger cards too).
    unseen = Counter(fresh.hooks.train_deck(fresh))
    kinds = len(template["hands"][0])
    my_hand = [0] * kinds
    for name, n in you["hand"].items():
        my_hand[CARD_INDEX[name]] = n
        unseen[CARD_INDEX[name]] -= n
    market = [-1 if c is None else CARD_INDEX[c] for c in view["market"]]
    for c in market:
        if c >= 0:
            unseen[c] -= 1
    if any(v < 0 for v in unseen.values()):
        raise CannotSample("card counts")
    pool = list(unseen.elements())
    sizes = [players[s]["hand_size"] if s != me else 0 for s in range(seats)]
    if sum(sizes) + view["deck_size"] + view["discard_size"] != len(pool):
        raise CannotSample("card total")
    rng.shuffle(pool)
    hands = []
    for s in range(seats):
        if s == me:
            hands.append(my_hand)
            continue
        h = [0] * kinds
        for c in pool[: sizes[s]]:
            h[c] += 1
        del pool[: sizes[s]]
        hands.append(h)
    discard = pool[: view["discard_size"]]
    deck = pool[view["discard_size"] :]
    # Tickets.
    mine = [t["id"] for t in you["tickets"]]
    offer = [t["id"] for t in you["offer"]]
    face_up = [t["id"] for t in view["ticket_discard"]]
    seen = set(mine) | set(offer) | set(face_up)
    unknown = [i for i in info.deck.tickets if i not in seen and not m.ticket_by_id[i].long]
    longs = [i for i in info.deck.tickets if i not in seen and m.ticket_by_id[i].long]
    rng.shuffle(unknown)
    rng.shuffle(longs)
    if marklin:  # two face-down decks of public sizes; the opponents' tickets come from either
        deck_sizes = view["ticket_decks"]
        decks = {"short": unknown[: deck_sizes["short"]], "long": longs[: deck_sizes["long"]]}
        unknown = unknown[deck_sizes["short"] :] + longs[deck_sizes["long"] :]
        rng.shuffle(unknown)
        longs = []
    tickets, offers, keep = [], [], []
    for s in range(seats):
        if s == me:
            tickets.append(mine)
            offers.append(offer)
            keep.append(you["keep_at_least"])
            continue
        held = []
        for _ in range(players[s]["tickets"]):
            held.append(unknown.pop() if unknown else None)
        tickets.append([i for i in held if i is not None])
        if players[s]["choosing_tickets"]:  # still choosing starting tickets: a sampled offer
            o = [longs.pop() for _ in range(info.deck.start_long) if longs]
            o += [unknown.pop() for _ in range(info.deck.start_deal) if unknown]
            offers.append(o)
            keep.append(min(info.deck.start_keep, len(o)))
        else:
            offers.append([])
            keep.append(0)
    ticket_deck = unknown[: view["ticket_deck_size"]]
    # Board.
    owner = [-1] * len(m.tracks)
    for tid, s in view["claims"].items():
        owner[m.track_by_id[tid].index] = s
    stations = [[] for _ in range(seats)]
    for cid, s in view["stations"].items():
        stations[s].append(m.city_by_id[cid].index)
    active = [s for s in range(seats) if players[s]["left"] is None]
    state.update(
        deck=deck,
        discard=discard,
        market=market,
        hands=hands,
        ticket_deck=ticket_deck,
        ticket_discard=face_up,
        tickets=tickets,
        offers=offers,
        offer_keep=keep,
        owner=owner,
        stations=stations,
        trains=[p["trains"] for p in players],
        stations_left=[p["stations_left"] for p in players],
        score=[p["score"] for p in players],
        left=[p["left"] for p in players],
        phase=view["phase"],
        current=view["current"] if view["current"] is not None else template["current"],
        round=view["round"],
        resume=None,
        stage=view["stage"],
        tunnel=None,
        last_round=list(active) if view["last_round"] else None,
        passes=0,
    )
    hooks = dict(template.get("hooks") or {})
    if "money" in hooks and "money" in you:  # Nederland: opponents' money as their claims tell it
        money = [max(0, int(v)) for v in money_from_claims(Board(view, info))]
        hooks["money"] = money
        hooks["bank"] = int(m.rules.extra.get("toll_money", 0)) * seats - sum(money)
        hooks["loans"] = [p.get("loans", 0) for p in players]
        neutral = view.get("neutral")
        if neutral:
            hooks["neutral_trains"] = neutral["trains"]
            hooks["marker"] = neutral["marker"]
            hooks["neutral_active"] = neutral["active"]
            hooks["pending"] = None
        state["hooks"] = hooks
    if marklin:  # passengers, merchandise and the mixes still to name are all public
        city = m.city_by_id
        merchandise = view["merchandise"]
        hooks.update(
            unplaced=[p["passengers"] for p in players],
            placed=[[city[c].index for c in p["passengers_placed"]] for p in players],
            tokens=[list(p["tokens"]) for p in players],
            stacks={str(city[c].index): list(reversed(v["stack"])) for c, v in merchandise.items()},
            dots={str(city[c].index): v["dot"] for c, v in merchandise.items()},
            mixing=[p["naming_tickets"] for p in players],
            **decks,
        )
        state["hooks"] = hooks
    return Game.from_json(state)


def playout(
    game: Game, policies: Sequence[Player], max_plies: int = 3000, stop: Callable[[Game, int], bool] | None = None
) -> None:
    """Play `game` with one policy per seat to its end, or until `stop(game, seat)` (asked after
    each step, with the seat that took it) says so."""
    infos = [GameInfo.from_game(game, s) for s in range(game.seats)]
    plies = 0
    while not game.is_over() and plies < max_plies:
        for seat in game.to_move():
            legal = legal_for(game, seat)
            game.apply(seat, policies[seat].choose(game.view(seat), legal, infos[seat]))
            plies += 1
            if stop is not None and stop(game, seat):
                return
            if game.is_over() or game.phase == "playing":
                break


def margin(game: Game, seat: int) -> float:
    """Points ahead of the best opponent (negative when behind)."""
    totals = {s.seat: s.total for s in game.final}
    best_other = max(v for s, v in totals.items() if s != seat)
    return totals[seat] - best_other


def surest(gains: Sequence[Sequence[float]], confidence: float) -> int:
    """The candidate whose paired gains over the first (samples shared by every candidate) are
    surest: the widest mean less `confidence` standard errors, if above zero; else the first
    (0). Few samples cannot then overrule the heuristic's own choice, which comes first."""
    best, best_sure = 0, 0.0
    for i in range(1, len(gains)):
        g = gains[i]
        if confidence and len(g) < 2:
            continue  # one sample says nothing about its own noise
        sure = statistics.fmean(g) - (confidence * statistics.stdev(g) / math.sqrt(len(g)) if confidence else 0.0)
        if sure > best_sure:
            best, best_sure = i, sure
    return best
