// A finished game's replay (bot/web/pages.py): the same map as the live table, a slider and step
// buttons (and the arrow keys) through the moves; each step shows the board, the market, the
// players and the move in words, the last one the final results. Every step comes in one JSON
// (bot/web/replay.py): the first whole, each later one only what changed.

import { Board, drawBoard, paintOwners, zoomable } from "./board";
import { card, h, playersTable, rich, richIn, say, ticketsLeft, PlayerRow } from "./parts";

interface Boot { steps: string; board: string; words: Record<string, string> }
interface View {
  phase: string; current: number | null; players: PlayerRow[]; market: (string | null)[];
  deck_size: number; ticket_deck_size?: number; ticket_decks?: { short: number; long: number }; claims: Record<string, number>; stations: Record<string, number>;
}
interface Replay {
  seats: { name: string; color: string }[];
  steps: { seat: number | null; view: Partial<View>; lines: string[] }[];
  title: string; final: { title: string; body: string }[];
}

const boot: Boot = JSON.parse(document.getElementById("boot")!.textContent!);
document.body.classList.add("replay");
const w = boot.words;

const mapHost = h("div", { id: "map" });
const slider = h("input", { id: "slider", type: "range", min: "0", value: "0", step: "1" }) as HTMLInputElement;
const previous = h("button", { id: "previous", "aria-label": w.previous }, "◀");
const next = h("button", { id: "next", "aria-label": w.next }, "▶");
const counter = h("div", { id: "counter" });
const said = h("ol", { id: "said" });
const market = h("div", { id: "market" });
const players = h("section", { id: "players" });
const final = h("section", { id: "final", hidden: "" });
document.body.append(
  mapHost, h("div", { id: "steps" }, previous, slider, next), counter, said, market, players, final,
);

async function start(): Promise<void> {
  const [board, replay]: [Board, Replay] = await Promise.all([
    fetch(boot.board).then((r) => r.json()),
    fetch(boot.steps).then((r) => r.json()),
  ]);
  mapHost.style.aspectRatio = `${board.width} / ${board.height}`;
  const drawn = drawBoard(board, mapHost);
  zoomable(drawn.svg, board.width, board.height, () => undefined);
  const colors = replay.seats.map((s) => s.color);
  const views: View[] = [];
  for (const step of replay.steps) views.push({ ...views[views.length - 1], ...step.view } as View);
  const last = views.length - 1;
  slider.max = String(last);
  final.replaceChildren(
    h("h2", {}, replay.title),
    ...replay.final.flatMap((p) => [richIn("h3", p.title), h("p", { class: "body" }, p.body)]),
  );

  const show = (n: number): void => {
    const at = Math.max(0, Math.min(last, n));
    const v = views[at];
    slider.value = String(at);
    counter.textContent = say(w.step, { n: at, total: last });
    paintOwners(board, drawn, v.claims, v.stations, colors);
    const before = views[at - 1]?.claims ?? {};
    for (const [id, g] of drawn.tracks) g.classList.toggle("just", v.claims[id] !== undefined && before[id] === undefined);
    const lines = replay.steps[at].lines;
    said.replaceChildren(...(at === 0 ? [h("li", {}, w.start)] : lines.map(rich)));
    market.replaceChildren(
      ...v.market.map((name) => card(name)),
      h("span", { class: "count" }, `${w.deck} · ${v.deck_size}`),
      h("span", { class: "count" }, `${w.tickets} · ${ticketsLeft(v)}`),
    );
    players.replaceChildren(playersTable(v.players, replay.seats, at === last ? null : v.current, w));
    final.hidden = at !== last;
    previous.toggleAttribute("disabled", at === 0);
    next.toggleAttribute("disabled", at === last);
    document.body.dataset.step = String(at);
  };
  slider.addEventListener("input", () => show(Number(slider.value)));
  previous.onclick = () => show(Number(slider.value) - 1);
  next.onclick = () => show(Number(slider.value) + 1);
  document.addEventListener("keydown", (e) => {
    if (e.target === slider) return; // the slider moves itself with the arrows
    if (e.key === "ArrowLeft") show(Number(slider.value) - 1);
    if (e.key === "ArrowRight") show(Number(slider.value) + 1);
  });
  show(last);
}

start();
