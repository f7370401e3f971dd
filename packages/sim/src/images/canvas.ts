import { encodePng, type Rgb } from './png';

/** A tiny RGB raster with the few antialiased shapes an insect drawing needs. */
export class Canvas {
  readonly pixels: Uint8Array;

  /** A canvas painted by `background`, or a copy of the pixels of another (a reused backdrop). */
  constructor(
    readonly width: number,
    readonly height: number,
    background: ((x: number, y: number) => Rgb) | Uint8Array,
  ) {
    if (background instanceof Uint8Array) {
      this.pixels = background.slice();
      return;
    }
    this.pixels = new Uint8Array(width * height * 3);
    for (let y = 0, at = 0; y < height; y++)
      for (let x = 0; x < width; x++, at += 3) {
        const colour = background(x, y);
        this.pixels[at] = colour[0];
        this.pixels[at + 1] = colour[1];
        this.pixels[at + 2] = colour[2];
      }
  }

  /** Blends a colour into one pixel with coverage `alpha` (0..1). */
  blend(x: number, y: number, colour: Rgb, alpha: number): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height || alpha <= 0) return;
    const at = (y * this.width + x) * 3;
    const a = Math.min(1, alpha);
    for (let c = 0; c < 3; c++)
      this.pixels[at + c] = Math.round(this.pixels[at + c]! * (1 - a) + colour[c]! * a);
  }

  /**
   * A filled ellipse centred at (cx, cy) with radii rx, ry, turned by `angle` radians, its edge
   * softened over a pixel; `opacity` below 1 lets the tray show through (a planthopper's wings).
   */
  ellipse(cx: number, cy: number, rx: number, ry: number, angle: number, colour: Rgb, opacity = 1) {
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    const reach = Math.ceil(Math.max(rx, ry)) + 1;
    for (let y = Math.floor(cy - reach); y <= Math.ceil(cy + reach); y++)
      for (let x = Math.floor(cx - reach); x <= Math.ceil(cx + reach); x++) {
        const dx = x + 0.5 - cx;
        const dy = y + 0.5 - cy;
        const u = (dx * cos + dy * sin) / rx;
        const v = (-dx * sin + dy * cos) / ry;
        const distance = Math.sqrt(u * u + v * v);
        // Coverage falls from 1 to 0 across the last pixel of the smaller radius.
        const edge = (1 - distance) * Math.min(rx, ry);
        this.blend(x, y, colour, Math.max(0, Math.min(1, edge + 0.5)) * opacity);
      }
  }

  /** A straight stroke of width `thickness` (legs, antennae), its edges softened over a pixel. */
  line(x0: number, y0: number, x1: number, y1: number, thickness: number, colour: Rgb) {
    const r = thickness / 2;
    const dx = x1 - x0;
    const dy = y1 - y0;
    const squared = dx * dx + dy * dy || 1;
    for (
      let y = Math.floor(Math.min(y0, y1) - r - 1);
      y <= Math.ceil(Math.max(y0, y1) + r + 1);
      y++
    )
      for (
        let x = Math.floor(Math.min(x0, x1) - r - 1);
        x <= Math.ceil(Math.max(x0, x1) + r + 1);
        x++
      ) {
        const px = x + 0.5 - x0;
        const py = y + 0.5 - y0;
        // Distance from the pixel's centre to the nearest point of the segment.
        const t = Math.max(0, Math.min(1, (px * dx + py * dy) / squared));
        const ex = px - t * dx;
        const ey = py - t * dy;
        const distance = Math.sqrt(ex * ex + ey * ey);
        this.blend(x, y, colour, Math.max(0, Math.min(1, r + 0.5 - distance)) * 0.8);
      }
  }

  png(): Buffer {
    return encodePng(this.width, this.height, this.pixels);
  }
}
