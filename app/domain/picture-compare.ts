/**
 * Whether the frame the browser shows and the companion's frame are the same picture (the true-cut report warns
 * when they are not: the site plays another rendition than the one the companion downloads). The two come from
 * different pipelines: the browser's grab of its video, drawn down on a canvas, and ffmpeg's thumbnail, scaled with
 * a filter. Both are compared as means over a grid of cells, each the mean of every pixel it covers, so a fine
 * high-contrast pattern (stripes, text, a test card) counts as the grey it averages to in both. A canvas draw does
 * not average what it shrinks (it samples four pixels per pixel), so the grab shrinks by halves (`downscaleSteps`),
 * each step averaging 2 x 2 pixels, until one more draw reaches its size.
 */

/** A picture as a canvas gives it: RGBA bytes, row by row (ImageData). */
export interface RgbaPicture {
  width: number;
  height: number;
  data: ArrayLike<number>;
}

export interface FrameSize {
  width: number;
  height: number;
}

/** The grid both pictures are averaged over (16:9, as most videos; any other shape is stretched alike in both). */
export const COMPARE_GRID = { columns: 32, rows: 18 } as const;
/** Mean difference (0–255) over the cells above which the pictures differ as a whole (a shift of colour, a blur…). */
const DIFFERENT_MEAN = 14;
/** A cell this far off (0–255) shows another content there… */
const DIFFERENT_CELL = 40;
/** …and this share of such cells is a picture that differs in part (another frame, another framing). */
const DIFFERENT_SHARE = 0.03;

/** The mean grey (0–255) of each cell of the grid, row by row: every pixel weighs by the part of it a cell covers. */
export function cellMeans(p: RgbaPicture, grid: { columns: number; rows: number } = COMPARE_GRID): number[] {
  const { columns, rows } = grid;
  const sums = new Float64Array(columns * rows);
  const cellW = p.width / columns;
  const cellH = p.height / rows;
  // A pixel's share in each cell it overlaps, along one axis: (cell, share) pairs.
  const shares = (i: number, cell: number, cells: number): [number, number][] => {
    const first = Math.floor(i / cell);
    const last = Math.min(cells - 1, Math.floor((i + 1) / cell - 1e-9));
    const out: [number, number][] = [];
    for (let c = first; c <= last; c++) out.push([c, Math.min(i + 1, (c + 1) * cell) - Math.max(i, c * cell)]);
    return out;
  };
  const xs = Array.from({ length: p.width }, (_, x) => shares(x, cellW, columns));
  for (let y = 0; y < p.height; y++) {
    const ys = shares(y, cellH, rows);
    for (let x = 0; x < p.width; x++) {
      const i = (y * p.width + x) * 4;
      const gray = ((p.data[i] ?? 0) + (p.data[i + 1] ?? 0) + (p.data[i + 2] ?? 0)) / 3;
      for (const [row, hy] of ys) for (const [column, wx] of xs[x]!) sums[row * columns + column]! += gray * hy * wx;
    }
  }
  const area = cellW * cellH;
  return Array.from(sums, (sum) => sum / area);
}

/** True when two renderings of a frame are not the same picture: a shift over the whole, or content changed in part. */
export function picturesDiffer(a: RgbaPicture, b: RgbaPicture): boolean {
  const x = cellMeans(a);
  const y = cellMeans(b);
  const off = x.map((v, i) => Math.abs(v - (y[i] ?? 0)));
  const mean = off.reduce((sum, d) => sum + d, 0) / off.length;
  const changed = off.filter((d) => d > DIFFERENT_CELL).length / off.length;
  return mean > DIFFERENT_MEAN || changed >= DIFFERENT_SHARE;
}

/**
 * The canvas draws that shrink a frame to `width` (its shape kept): halves while a half is still at least twice
 * the width, then one draw to the width. A draw at exactly half size averages 2 x 2 pixels; one draw at a quarter
 * or less would sample one pixel in four and alias fine patterns.
 */
export function downscaleSteps(source: FrameSize, width: number): FrameSize[] {
  const steps: FrameSize[] = [];
  let { width: w, height: h } = source;
  while (w / 2 >= width * 1.5) {
    w = Math.round(w / 2);
    h = Math.round(h / 2);
    steps.push({ width: w, height: h });
  }
  steps.push({ width, height: Math.round((width * source.height) / source.width) });
  return steps;
}
