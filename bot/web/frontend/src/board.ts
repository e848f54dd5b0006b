// The map as SVG, from the board JSON the server builds out of the Pillow board's own geometry
// (bot/web/board.py), and pinch-zoom / pan / tap on it with pointer events.

export interface City { id: string; name: string; x: number; y: number; kind: string }
export interface Label { city: string; size: number; lines: string[]; at: [number, number][] }
export interface Track {
  id: string; a: string; b: string; color: string; length: number; tunnel: boolean; ferry: number;
  cars: [number, number, number, number, number][];
}
export interface Board {
  map: string; width: number; height: number; city_r: number; halo: number;
  colors: Record<string, string>; cities: City[]; labels: Label[]; tracks: Track[];
}

const NS = "http://www.w3.org/2000/svg";

export function el(name: string, attrs: Record<string, string | number> = {}, parent?: Element): SVGElement {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

/** What the page changes on the map after each frame: the cars' fills, the cities' marks. */
export interface Drawn {
  svg: SVGSVGElement;
  cars: Map<string, SVGElement[]>;
  tracks: Map<string, SVGElement>;
  cities: Map<string, SVGElement>;
  marks: SVGElement; // stations, ticket rings and passengers' cities, redrawn each frame
  trips: SVGElement; // Märklin: the trips offered from a tapped city, while the player chooses
}

export function drawBoard(board: Board, host: HTMLElement): Drawn {
  const svg = el("svg", { viewBox: `0 0 ${board.width} ${board.height}`, class: "map" }) as SVGSVGElement;
  el("rect", { x: 0, y: 0, width: board.width, height: board.height, fill: board.colors.background }, svg);
  const routes = el("g", { class: "routes" }, svg);
  const cars = new Map<string, SVGElement[]>();
  const tracks = new Map<string, SVGElement>();
  for (const t of board.tracks) {
    const g = el("g", { class: "track", "data-track": t.id }, routes);
    if (t.tunnel) g.classList.add("tunnel");
    const list: SVGElement[] = [];
    for (const [x, y, angle, length, width] of t.cars) {
      // a wider invisible hit area around each car: a finger is bigger than a car
      el("rect", {
        x: x - length / 2 - 4, y: y - width / 2 - 6, width: length + 8, height: width + 12,
        transform: `rotate(${angle} ${x} ${y})`, class: "hit",
      }, g);
      const car = el("rect", {
        x: x - length / 2, y: y - width / 2, width: length, height: width, rx: width / 5,
        transform: `rotate(${angle} ${x} ${y})`, fill: board.colors[t.color] ?? board.colors.gray, class: "car",
      }, g);
      list.push(car);
      if (t.ferry && list.length <= t.ferry) {
        el("circle", { cx: x, cy: y, r: width / 4, class: "ferry" }, g);
      }
    }
    cars.set(t.id, list);
    tracks.set(t.id, g);
  }
  const cities = new Map<string, SVGElement>();
  const places = el("g", { class: "cities" }, svg);
  for (const c of board.cities) {
    if (c.kind === "country") continue;
    const r = c.kind === "border" ? board.city_r * 0.8 : board.city_r;
    const node = el("circle", { cx: c.x, cy: c.y, r, fill: board.colors.city, class: "city", "data-city": c.id }, places);
    cities.set(c.id, node);
  }
  const marks = el("g", { class: "marks" }, svg);
  const trips = el("g", { class: "trips" }, svg);
  const labels = el("g", { class: "labels", "stroke-width": board.halo * 2 }, svg);
  for (const label of board.labels) {
    label.lines.forEach((line, i) => {
      const [x, y] = label.at[i];
      const text = el("text", { x, y, "font-size": label.size, "data-city": label.city }, labels);
      text.textContent = line;
    });
  }
  host.appendChild(svg);
  return { svg, cars, tracks, cities, marks, trips };
}

/** Pinch-zoom and pan by changing the viewBox; a short touch that barely moved is a tap. Returns
 * what shows a part of the map (x0, y0, x1, y1 in map units) with room around it. */
export function zoomable(
  svg: SVGSVGElement, width: number, height: number, tap: (target: Element) => void,
): (x0: number, y0: number, x1: number, y1: number) => void {
  let box = { x: 0, y: 0, w: width, h: height };
  const pointers = new Map<number, { x: number; y: number }>();
  let start: { x: number; y: number; moved: boolean } | null = null;
  let pinch: { d: number; box: typeof box; cx: number; cy: number } | null = null;

  const apply = () => svg.setAttribute("viewBox", `${box.x} ${box.y} ${box.w} ${box.h}`);
  const scale = () => box.w / svg.getBoundingClientRect().width; // map units per screen pixel
  const toMap = (px: number, py: number) => {
    const r = svg.getBoundingClientRect();
    return { x: box.x + ((px - r.left) / r.width) * box.w, y: box.y + ((py - r.top) / r.height) * box.h };
  };
  const clamp = () => {
    box.w = Math.min(width, Math.max(width / 8, box.w));
    box.h = (box.w * height) / width;
    box.x = Math.min(width - box.w, Math.max(0, box.x));
    box.y = Math.min(height - box.h, Math.max(0, box.y));
  };
  const zoomAt = (px: number, py: number, factor: number, from = box) => {
    const p = toMap(px, py);
    const w = from.w / factor;
    box = { x: p.x - ((p.x - from.x) * w) / from.w, y: p.y - ((p.y - from.y) * w) / from.w, w, h: (w * height) / width };
    clamp();
    apply();
  };

  svg.addEventListener("pointerdown", (e) => {
    svg.setPointerCapture(e.pointerId);
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.size === 1) start = { x: e.clientX, y: e.clientY, moved: false };
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = { d: Math.hypot(a.x - b.x, a.y - b.y), box: { ...box }, cx: (a.x + b.x) / 2, cy: (a.y + b.y) / 2 };
      if (start) start.moved = true;
    }
  });
  svg.addEventListener("pointermove", (e) => {
    const last = pointers.get(e.pointerId);
    if (!last) return;
    const now = { x: e.clientX, y: e.clientY };
    pointers.set(e.pointerId, now);
    if (pinch && pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const d = Math.hypot(a.x - b.x, a.y - b.y);
      box = { ...pinch.box };
      zoomAt(pinch.cx, pinch.cy, d / pinch.d, pinch.box);
      return;
    }
    if (start && Math.hypot(now.x - start.x, now.y - start.y) > 8) start.moved = true;
    if (start?.moved && pointers.size === 1) {
      const s = scale();
      box.x -= (now.x - last.x) * s;
      box.y -= (now.y - last.y) * s;
      clamp();
      apply();
    }
  });
  const end = (e: PointerEvent) => {
    pointers.delete(e.pointerId);
    if (pointers.size < 2) pinch = null;
    if (pointers.size === 0 && start && !start.moved && e.type === "pointerup") {
      const target = document.elementFromPoint(e.clientX, e.clientY);
      if (target) tap(target);
    }
    if (pointers.size === 0) start = null;
  };
  svg.addEventListener("pointerup", end);
  svg.addEventListener("pointercancel", end);
  svg.addEventListener("wheel", (e) => {
    e.preventDefault();
    zoomAt(e.clientX, e.clientY, e.deltaY < 0 ? 1.2 : 1 / 1.2);
  }, { passive: false });
  return (x0, y0, x1, y1) => {
    const w = Math.max((x1 - x0) * 2.5, ((y1 - y0) * 2.5 * width) / height, width / 4);
    box = { x: (x0 + x1) / 2 - w / 2, y: (y0 + y1) / 2 - (w * height) / width / 2, w, h: (w * height) / width };
    clamp();
    apply();
  };
}

/** Who owns what on the map: each claimed route's cars in its owner's colour, a station over each
 * city that has one; `marks` is emptied first (the page adds its own marks after). */
export function paintOwners(
  board: Board, drawn: Drawn, claims: Record<string, number>, stations: Record<string, number>, colors: string[],
): void {
  for (const [id, cars] of drawn.cars) {
    const owner = claims[id];
    const track = board.tracks.find((t) => t.id === id)!;
    for (const car of cars) car.setAttribute("fill", owner === undefined ? board.colors[track.color] : colors[owner] ?? "#888");
    drawn.tracks.get(id)!.classList.toggle("claimed", owner !== undefined);
  }
  drawn.marks.replaceChildren();
  const r = board.city_r;
  for (const c of board.cities) {
    const owner = stations[c.id];
    if (owner !== undefined) {
      el("rect", { x: c.x - r, y: c.y - r * 2.4, width: r * 2, height: r * 1.6, fill: colors[owner], class: "station" }, drawn.marks);
    }
  }
}
