// The web table's page: the map (board.ts), the market, the players, the viewer's hand and tickets,
// kept live by server-sent events; a tap sends one of the moves the last frame offered
// (bot/web/server.py checks it again and plays it through the same path as a Discord button).

import { Board, Drawn, drawBoard, el, paintOwners, zoomable } from "./board";
import { card, h, playersTable, rich, say, ticketsLeft } from "./parts";

let focus: (x0: number, y0: number, x1: number, y1: number) => void = () => undefined;
let focused = ""; // the tunnel the map last zoomed to (once, so the player may pan away)

/** Zooms the map to a route (the tunnel being decided), once per route. */
function showOnMap(track: string): void {
  if (focused === track) return;
  focused = track;
  const cars = board.tracks.find((t) => t.id === track)!.cars;
  const xs = cars.map((c) => c[0]);
  const ys = cars.map((c) => c[1]);
  focus(Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys));
}

interface Boot { token: string; seat: number | null; board: string; words: Record<string, string>; spectators?: string }
interface Move {
  kind: string; text: string; label: string; track?: string; slot?: number; city?: string;
  ids?: number[]; path?: string[];
}
interface Ticket { id: number; a: string; b: string; points: number; destinations?: { to: string }[] }
interface Player { seat: number; score: number; trains: number; hand_size: number; tickets: number; left: string | null }
interface View {
  phase: string; current: number | null; stage: string | null; players: Player[];
  market: (string | null)[]; deck_size: number; ticket_deck_size?: number; ticket_decks?: { short: number; long: number };
  claims: Record<string, number>; stations: Record<string, number>;
  tunnel: { track: string; revealed: string[]; surcharge: number } | null;
  final: { seat: number; total: number; rank: number }[] | null;
  you: { seat: number; hand: Record<string, number>; tickets: Ticket[]; offer: Ticket[]; keep_at_least: number; decision: number } | null;
}
interface Frame {
  game: number; version: number; view: View; seats: { name: string; color: string }[]; log: string[];
  moves?: Move[]; payable?: string[]; done?: Record<string, boolean>;
}

const boot: Boot = JSON.parse(document.getElementById("boot")!.textContent!);
const w = boot.words;
let board: Board;
let drawn: Drawn;
let frame: Frame | null = null;
const chosenTickets = new Set<number>();

function cityName(id: string): string {
  return board.cities.find((c) => c.id === id)?.name ?? id;
}

function routeName(trackId: string): string {
  const t = board.tracks.find((x) => x.id === trackId)!;
  return `${cityName(t.a)} – ${cityName(t.b)}`;
}

// ------------------------------------------------------------------ layout

const mapHost = h("div", { id: "map" });
const status = h("div", { id: "status" });
const market = h("div", { id: "market" });
const dialog = h("div", { id: "dialog", hidden: "" });
const mine = h("section", { id: "mine" });
const players = h("section", { id: "players" });
const other = h("section", { id: "other" });
const logList = h("ol", { id: "log" });
const toast = h("div", { id: "toast", hidden: "" });
document.body.append(
  mapHost, status, dialog, market, mine, players, other,
  h("section", {}, h("h2", {}, w.log), logList), toast,
);

function show(message: string): void {
  toast.textContent = message;
  toast.hidden = false;
  setTimeout(() => (toast.hidden = true), 4000);
}

if (boot.spectators) {
  const share = h("button", { id: "share" }, w.share);
  share.onclick = async () => {
    await navigator.clipboard?.writeText(boot.spectators!).catch(() => undefined);
    show(`${w.copied}\n${boot.spectators}`);
  };
  const revoke = h("button", { id: "revoke" }, w.revoke);
  revoke.onclick = async () => {
    await fetch(`/web/api/${boot.token}/revoke`, { method: "POST" });
    location.reload(); // the page now says the link was revoked
  };
  document.body.append(h("section", { id: "links" }, share, revoke));
}

// ------------------------------------------------------------------ moves

async function act(move: Move): Promise<void> {
  if (!frame?.view.you) return;
  close();
  const answer = await fetch(`/web/api/${boot.token}/act`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ move: move.text, decision: frame.view.you.decision }),
  });
  if (!answer.ok) {
    const body = await answer.json().catch(() => ({}));
    show(body.error ?? body.refused ?? String(answer.status));
  }
}

function moves(kind: string, test: (m: Move) => boolean = () => true): Move[] {
  return (frame?.moves ?? []).filter((m) => m.kind === kind && test(m));
}

function close(): void {
  dialog.hidden = true;
  drawn.trips.replaceChildren();
}

function ask(title: string, choices: Move[]): void {
  dialog.replaceChildren(h("p", {}, title));
  for (const m of choices) {
    const b = h("button", { class: "choice" }, m.label);
    b.onclick = () => act(m);
    dialog.append(b);
  }
  const cancel = h("button", { class: "cancel" }, w.cancel);
  cancel.onclick = () => close();
  dialog.append(cancel);
  dialog.hidden = false;
}

function tapped(target: Element): void {
  const track = target.closest("[data-track]")?.getAttribute("data-track");
  if (track) {
    const choices = (frame?.moves ?? []).filter((m) => m.track === track);
    if (choices.length) ask(say(w.pay, { route: routeName(track) }), choices);
    return;
  }
  const city = target.closest("[data-city]")?.getAttribute("data-city");
  if (!city) return;
  const trips = moves("Move", (m) => m.path?.[0] === city);
  if (trips.length) {
    ask(say(w.passenger, { city: cityName(city) }), trips);
    drawTrips(trips);
    return;
  }
  const choices = moves("BuildStation", (m) => m.city === city);
  if (choices.length) ask(say(w.station, { city: cityName(city) }), choices);
}

/** Märklin: the trips a passenger may take from the tapped city, drawn on the map while the
 * player chooses; each dialog choice lights its own trip up when touched. */
function drawTrips(trips: Move[]): void {
  drawn.trips.replaceChildren();
  const at = (id: string) => board.cities.find((c) => c.id === id)!;
  trips.forEach((m, i) => {
    const points = m.path!.map((id) => `${at(id).x},${at(id).y}`).join(" ");
    el("polyline", { points, class: "trip", "data-trip": i }, drawn.trips);
  });
  const ends = trips.flatMap((m) => m.path!.map(at));
  const xs = ends.map((c) => c.x);
  const ys = ends.map((c) => c.y);
  focus(Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)); // every trip in sight
  dialog.querySelectorAll<HTMLElement>(".choice").forEach((b, i) => {
    const light = (on: boolean) => drawn.trips.querySelector(`[data-trip="${i}"]`)?.classList.toggle("lit", on);
    b.onpointerenter = () => light(true);
    b.onpointerleave = () => light(false);
  });
}

// ------------------------------------------------------------------ drawing a frame

function paintMap(f: Frame): void {
  const v = f.view;
  const payable = new Set(f.payable ?? []);
  paintOwners(board, drawn, v.claims, v.stations, f.seats.map((s) => s.color));
  for (const [id, g] of drawn.tracks) g.classList.toggle("payable", v.claims[id] === undefined && payable.has(id));
  for (const g of drawn.tracks.values()) g.classList.remove("pending");
  if (v.tunnel) drawn.tracks.get(v.tunnel.track)?.classList.add("pending");
  const starts = new Set(moves("Move").map((m) => m.path![0]));
  const r = board.city_r;
  const ticketCities = new Set<string>();
  for (const t of v.you?.tickets ?? []) {
    if (f.done?.[String(t.id)]) continue;
    ticketCities.add(t.a).add(t.b);
  }
  for (const c of board.cities) {
    if (ticketCities.has(c.id)) {
      el("circle", { cx: c.x, cy: c.y, r: r * 1.7, class: "ticket-ring", stroke: board.colors.ticket }, drawn.marks);
    }
    if (starts.has(c.id)) {
      el("circle", { cx: c.x, cy: c.y, r: r * 2.2, class: "passenger-start" }, drawn.marks);
    }
  }
}

function paintMarket(f: Frame): void {
  market.replaceChildren();
  f.view.market.forEach((name, slot) => {
    const b = h("button", { class: "slot", "data-slot": String(slot) }, card(name));
    const move = moves("DrawMarket", (m) => m.slot === slot)[0];
    b.toggleAttribute("disabled", !move);
    b.onclick = () => move && act(move);
    market.append(b);
  });
  const deck = h("button", { id: "deck" }, `${w.deck} · ${f.view.deck_size}`);
  const deckMove = moves("DrawDeck")[0];
  deck.toggleAttribute("disabled", !deckMove);
  deck.onclick = () => deckMove && act(deckMove);
  const tickets = h("button", { id: "draw-tickets" }, `${w.tickets} · ${ticketsLeft(f.view)}`);
  const ticketMoves = moves("DrawTickets"); // Märklin: one per mix of long and short tickets
  tickets.toggleAttribute("disabled", !ticketMoves.length);
  tickets.onclick = () => (ticketMoves.length === 1 ? act(ticketMoves[0]) : ask(w.tickets, ticketMoves));
  market.append(deck, tickets);
}

function ticketLine(t: Ticket, done?: boolean): string {
  const to = t.destinations ? t.destinations.map((d) => cityName(d.to)).join(" / ") : cityName(t.b);
  return `${done ? "✅ " : ""}${cityName(t.a)} – ${to} · ${t.points}`;
}

function paintMine(f: Frame): void {
  const you = f.view.you;
  mine.replaceChildren();
  if (!you) {
    mine.append(h("p", { class: "note" }, w.spectating));
    return;
  }
  const hand = h("div", { id: "hand" });
  for (const [name, n] of Object.entries(you.hand)) hand.append(card(name, n));
  mine.append(h("h2", {}, w.hand), hand, h("h2", {}, w.your_tickets));
  const list = h("ul", { id: "tickets" });
  for (const t of you.tickets) list.append(h("li", {}, ticketLine(t, f.done?.[String(t.id)])));
  mine.append(list);
  const keeps = moves("KeepTickets");
  if (you.offer.length && keeps.length) {
    const offer = h("div", { id: "offer" }, h("p", {}, say(w.keep_at_least, { n: you.keep_at_least })));
    for (const t of you.offer) {
      const box = h("input", { type: "checkbox", "data-ticket": String(t.id) }) as HTMLInputElement;
      box.checked = chosenTickets.has(t.id);
      box.onchange = () => {
        if (box.checked) chosenTickets.add(t.id); else chosenTickets.delete(t.id);
        paintMine(f);
      };
      offer.append(h("label", {}, box, ticketLine(t)));
    }
    const picked = [...chosenTickets].sort((a, b) => a - b).join(",");
    const keep = keeps.find((m) => (m.ids ?? []).join(",") === picked);
    const button = h("button", { id: "keep" }, w.keep);
    button.toggleAttribute("disabled", !keep);
    button.onclick = () => keep && act(keep);
    offer.append(button);
    mine.prepend(offer);
  } else {
    chosenTickets.clear();
  }
  const pays = moves("PayTunnel");
  const decline = moves("DeclineTunnel");
  if (f.view.tunnel && (pays.length || decline.length)) {
    const revealed = h("div", { class: "revealed" }, ...f.view.tunnel.revealed.map((name) => card(name)));
    const text = say(w.tunnel, { route: routeName(f.view.tunnel.track), n: f.view.tunnel.surcharge });
    const box = h("div", { id: "tunnel" }, h("p", {}, text), revealed);
    for (const m of [...pays, ...decline]) {
      const b = h("button", { class: m.kind === "DeclineTunnel" ? "decline" : "pay" }, m.label);
      b.onclick = () => act(m);
      box.append(b);
    }
    mine.prepend(box);
    showOnMap(f.view.tunnel.track);
  }
}

const SHOWN = new Set([
  "DrawMarket", "DrawDeck", "DrawTickets", "Claim", "BuildStation", "KeepTickets", "PayTunnel", "DeclineTunnel", "Move",
]);

function paintOther(f: Frame): void {
  other.replaceChildren();
  const rest = (f.moves ?? []).filter((m) => !SHOWN.has(m.kind) && !m.track);
  if (!rest.length) return;
  other.append(h("h2", {}, w.other));
  for (const m of rest) {
    const b = h("button", {}, m.label);
    b.onclick = () => act(m);
    other.append(b);
  }
}

function paintPlayers(f: Frame): void {
  players.replaceChildren(playersTable(f.view.players, f.seats, f.view.current, w, f.view.final ?? []));
}

function paintStatus(f: Frame): void {
  const v = f.view;
  let text = "";
  if (v.phase === "over") text = w.over;
  else if (v.phase === "choosing") text = w.choosing;
  else if (v.current !== null && v.current === v.you?.seat) text = w.your_turn;
  else if (v.current !== null) text = say(w.turn_of, { name: f.seats[v.current].name });
  status.textContent = text;
  status.classList.toggle("mine", text === w.your_turn);
}

function paint(f: Frame): void {
  frame = f;
  paintMap(f);
  paintStatus(f);
  paintMarket(f);
  paintMine(f);
  paintOther(f);
  paintPlayers(f);
  if (f.view.phase === "over") status.after(players); // the final scores first, under the map
  logList.replaceChildren(...f.log.map(rich));
  if (!dialog.hidden) close(); // its choices were for the frame before
  document.body.dataset.version = String(f.version);
}

// ------------------------------------------------------------------ start

async function start(): Promise<void> {
  board = await (await fetch(boot.board)).json();
  mapHost.style.aspectRatio = `${board.width} / ${board.height}`;
  drawn = drawBoard(board, mapHost);
  focus = zoomable(drawn.svg, board.width, board.height, tapped);
  const events = new EventSource(`/web/api/${boot.token}/events`);
  events.onmessage = (e) => {
    toast.hidden = true;
    paint(JSON.parse(e.data));
  };
  events.onerror = () => show(w.offline);
  events.addEventListener("refused", () => {
    events.close();
    location.reload(); // the server says why on the page
  });
}

start();
