// Pieces of page shared by the live table (main.ts) and the replay (replay.ts): elements, a line
// of the moves in words, a card, the players' table.

export function h(tag: string, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElement {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const child of children) node.append(child);
  return node;
}

export function say(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (_, k) => String(values[k] ?? ""));
}

/** "**name** drew …" as text with bold names (never as HTML), in a `tag` element, without the
 * bot's Discord card emojis (`<:ttr_red:id>`: the card's name follows each). */
export function richIn(tag: string, line: string): HTMLElement {
  const p = h(tag);
  line.replace(/<a?:\w+:\d+>\s*/g, "").split("**").forEach((part, i) => p.append(i % 2 ? h("b", {}, part) : part));
  return p;
}

/** A line of the moves in words, as a list item. */
export function rich(line: string): HTMLElement {
  return richIn("li", line);
}

/** The tickets left to draw: one deck's count, or Märklin's short + long ("30 + 8"). */
export function ticketsLeft(v: { ticket_deck_size?: number; ticket_decks?: { short: number; long: number } }): string {
  return v.ticket_decks ? `${v.ticket_decks.short} + ${v.ticket_decks.long}` : String(v.ticket_deck_size ?? 0);
}

export function card(name: string | null, count?: number): HTMLElement {
  return h("span", { class: `card ${name ?? "empty"}` }, count === undefined ? "" : String(count));
}

export interface PlayerRow { seat: number; score: number; trains: number; hand_size: number; tickets: number }

export interface FinalRow { seat: number; rank: number; total: number }

/** Score, trains, cards and tickets of each player, the one `current` in bold; when the game is
 * over (`final`), ranked, with medals and the final totals. */
export function playersTable(
  rows: PlayerRow[], seats: { name: string; color: string }[], current: number | null, w: Record<string, string>,
  final: FinalRow[] = [],
): HTMLElement {
  const head = h("tr", {}, h("th", {}, ""), ...[w.score, w.trains, w.cards, w.tickets_count].map((x) => h("th", {}, x)));
  const results = new Map(final.map((s) => [s.seat, s]));
  const ranked = [...rows].sort((a, b) => (results.get(a.seat)?.rank ?? 0) - (results.get(b.seat)?.rank ?? 0));
  const body = ranked.map((p) => {
    const seat = seats[p.seat];
    const result = results.get(p.seat);
    const swatch = h("span", { class: "swatch" });
    swatch.style.background = seat.color;
    const medal = result ? ["🥇 ", "🥈 ", "🥉 "][result.rank - 1] ?? "" : "";
    const row = h("tr", { class: current === p.seat ? "current" : "" }, h("td", {}, swatch, medal, seat.name));
    for (const n of [result?.total ?? p.score, p.trains, p.hand_size, p.tickets]) row.append(h("td", {}, String(n)));
    return row;
  });
  return h("table", {}, head, ...body);
}
