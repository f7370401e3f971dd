import type { Random } from '../random';
import type { Canvas } from './canvas';
import type { Rgb } from './png';

type Shape = 'moth' | 'hopper' | 'beetle' | 'cricket';

/** How one pest looks on a trap's tray: its build, length (px at tray scale) and colours. */
export interface InsectLook {
  shape: Shape;
  length: number;
  wing: Rgb;
  body: Rgb;
  /** Spots or bands on the forewings. */
  mark?: Rgb;
}

/**
 * The common pests of the region's fields as a light trap catches them (the demo catalogue's
 * species, by key). Lengths are in proportion: a chafer beetle dwarfs a planthopper.
 */
export const INSECT_LOOKS: Readonly<Record<string, InsectLook>> = {
  fallArmyworm: {
    shape: 'moth',
    length: 17,
    wing: [122, 104, 86],
    body: [96, 80, 66],
    mark: [214, 204, 186],
  },
  brownPlanthopper: { shape: 'hopper', length: 5, wing: [196, 176, 140], body: [110, 74, 40] },
  whiteBackedPlanthopper: {
    shape: 'hopper',
    length: 5,
    wing: [214, 206, 186],
    body: [70, 60, 46],
    mark: [236, 232, 220],
  },
  stripedStemBorer: {
    shape: 'moth',
    length: 13,
    wing: [196, 170, 120],
    body: [170, 146, 100],
    mark: [130, 104, 70],
  },
  cottonBollworm: {
    shape: 'moth',
    length: 16,
    wing: [160, 140, 88],
    body: [130, 112, 70],
    mark: [100, 84, 60],
  },
  blackCutworm: {
    shape: 'moth',
    length: 19,
    wing: [84, 70, 60],
    body: [70, 60, 52],
    mark: [30, 26, 24],
  },
  riceLeafFolder: {
    shape: 'moth',
    length: 10,
    wing: [218, 182, 96],
    body: [190, 160, 90],
    mark: [120, 90, 50],
  },
  asianCornBorer: {
    shape: 'moth',
    length: 13,
    wing: [200, 168, 104],
    body: [170, 140, 90],
    mark: [150, 110, 60],
  },
  orientalArmyworm: {
    shape: 'moth',
    length: 17,
    wing: [176, 150, 116],
    body: [150, 128, 100],
    mark: [240, 236, 226],
  },
  beetArmyworm: {
    shape: 'moth',
    length: 12,
    wing: [132, 124, 112],
    body: [110, 102, 92],
    mark: [188, 160, 110],
  },
  darkChafer: { shape: 'beetle', length: 19, wing: [52, 38, 30], body: [36, 28, 24] },
  moleCricket: { shape: 'cricket', length: 28, wing: [120, 92, 62], body: [96, 72, 48] },
};

const darker = (colour: Rgb, by: number): Rgb =>
  [colour[0] * by, colour[1] * by, colour[2] * by].map(Math.round) as unknown as Rgb;

/** A point `forward` along the heading and `side` across it from (x, y). */
function at(x: number, y: number, angle: number, forward: number, side: number): [number, number] {
  return [
    x + Math.cos(angle) * forward - Math.sin(angle) * side,
    y + Math.sin(angle) * forward + Math.cos(angle) * side,
  ];
}

function legs(canvas: Canvas, x: number, y: number, angle: number, length: number, colour: Rgb) {
  for (const along of [-0.15, 0.05, 0.22]) {
    for (const side of [-1, 1]) {
      const [hx, hy] = at(x, y, angle, along * length, side * length * 0.12);
      const [fx, fy] = at(x, y, angle, (along - 0.12) * length, side * length * 0.42);
      canvas.line(hx, hy, fx, fy, Math.max(0.8, length / 22), colour);
    }
  }
}

function antennae(
  canvas: Canvas,
  x: number,
  y: number,
  angle: number,
  length: number,
  colour: Rgb,
) {
  for (const side of [-1, 1]) {
    const [hx, hy] = at(x, y, angle, length * 0.45, side * length * 0.04);
    const [tx, ty] = at(x, y, angle, length * 0.8, side * length * 0.28);
    canvas.line(hx, hy, tx, ty, Math.max(0.6, length / 30), colour);
  }
}

/**
 * Draws one insect at (x, y) heading `angle` (radians), resting with its wings folded back as
 * trapped moths and hoppers do; `scale` enlarges the tray size (a catalogue portrait).
 */
export function drawInsect(
  canvas: Canvas,
  look: InsectLook,
  x: number,
  y: number,
  angle: number,
  scale = 1,
  random?: Random,
): void {
  const length = look.length * scale * (random ? random.between(0.85, 1.15) : 1);
  const outline = darker(look.body, 0.6);
  switch (look.shape) {
    case 'moth': {
      antennae(canvas, x, y, angle, length, outline);
      // Forewings folded back in a delta over the hind wings and the abdomen.
      for (const side of [-1, 1]) {
        const [wx, wy] = at(x, y, angle, -length * 0.14, side * length * 0.13);
        canvas.ellipse(
          wx,
          wy,
          length * 0.46,
          length * 0.19,
          angle - side * 0.3,
          darker(look.wing, 0.85),
        );
        const [fx, fy] = at(x, y, angle, -length * 0.08, side * length * 0.1);
        canvas.ellipse(fx, fy, length * 0.47, length * 0.16, angle - side * 0.22, look.wing);
        if (look.mark) {
          const [mx, my] = at(x, y, angle, 0, side * length * 0.12);
          canvas.ellipse(mx, my, length * 0.08, length * 0.05, angle, look.mark);
          const [bx, by] = at(x, y, angle, -length * 0.36, side * length * 0.2);
          canvas.ellipse(bx, by, length * 0.05, length * 0.11, angle - side * 0.3, look.mark, 0.7);
        }
      }
      const [hx, hy] = at(x, y, angle, length * 0.38, 0);
      canvas.ellipse(hx, hy, length * 0.1, length * 0.1, angle, look.body);
      break;
    }
    case 'hopper': {
      legs(canvas, x, y, angle, length, outline);
      canvas.ellipse(x, y, length * 0.5, length * 0.17, angle, look.body);
      for (const side of [-1, 1]) {
        const [wx, wy] = at(x, y, angle, -length * 0.12, side * length * 0.07);
        canvas.ellipse(wx, wy, length * 0.55, length * 0.15, angle + side * 0.1, look.wing, 0.55);
      }
      if (look.mark) {
        const [mx, my] = at(x, y, angle, length * 0.15, 0);
        canvas.ellipse(mx, my, length * 0.16, length * 0.06, angle, look.mark);
      }
      const [hx, hy] = at(x, y, angle, length * 0.45, 0);
      canvas.ellipse(hx, hy, length * 0.12, length * 0.14, angle, darker(look.body, 0.9));
      break;
    }
    case 'beetle': {
      legs(canvas, x, y, angle, length, outline);
      canvas.ellipse(x, y, length * 0.42, length * 0.27, angle, look.wing);
      // The elytra's seam and the shine of a hard back.
      const [sx, sy] = at(x, y, angle, -length * 0.38, 0);
      const [ex, ey] = at(x, y, angle, length * 0.22, 0);
      canvas.line(sx, sy, ex, ey, Math.max(0.8, length / 25), darker(look.wing, 0.5));
      const [gx, gy] = at(x, y, angle, 0, -length * 0.12);
      canvas.ellipse(gx, gy, length * 0.16, length * 0.05, angle, [150, 130, 110], 0.45);
      const [px, py] = at(x, y, angle, length * 0.36, 0);
      canvas.ellipse(px, py, length * 0.14, length * 0.2, angle, look.body);
      const [hx, hy] = at(x, y, angle, length * 0.5, 0);
      canvas.ellipse(hx, hy, length * 0.08, length * 0.1, angle, look.body);
      break;
    }
    case 'cricket': {
      legs(canvas, x, y, angle, length, outline);
      // Digging forelegs, a velvety thorax shield, short wings over a long abdomen.
      for (const side of [-1, 1]) {
        const [fx, fy] = at(x, y, angle, length * 0.42, side * length * 0.14);
        canvas.ellipse(fx, fy, length * 0.1, length * 0.06, angle + side * 0.8, outline);
      }
      canvas.ellipse(x, y, length * 0.48, length * 0.14, angle, look.body);
      const [tx, ty] = at(x, y, angle, length * 0.25, 0);
      canvas.ellipse(tx, ty, length * 0.17, length * 0.15, angle, darker(look.body, 0.8));
      const [wx, wy] = at(x, y, angle, -length * 0.05, 0);
      canvas.ellipse(wx, wy, length * 0.22, length * 0.12, angle, look.wing, 0.8);
      antennae(canvas, x, y, angle, length * 0.6, outline);
      break;
    }
  }
}
