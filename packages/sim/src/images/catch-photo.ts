import type { Random } from '../random';
import { Canvas } from './canvas';
import { drawInsect, INSECT_LOOKS } from './insect-shapes';
import type { Rgb } from './png';

const WIDTH = 320;
const HEIGHT = 240;
/** The tray's rim, then the white collecting board with its printed grid. */
const RIM = 10;
const RIM_COLOUR: Rgb = [70, 74, 80];
const GRID = 40;

/** How often each species turns up in a summer night's catch (the demo region's fields). */
const NIGHT_MIX: Readonly<Record<string, number>> = {
  brownPlanthopper: 30,
  whiteBackedPlanthopper: 20,
  stripedStemBorer: 10,
  riceLeafFolder: 10,
  fallArmyworm: 6,
  cottonBollworm: 5,
  asianCornBorer: 5,
  orientalArmyworm: 4,
  beetArmyworm: 4,
  blackCutworm: 3,
  darkChafer: 2,
  moleCricket: 1,
};

/** At most this many insects are drawn: a fuller tray is the same picture, only busier. */
const MAX_DRAWN = 80;

function board(x: number, y: number): Rgb {
  if (x < RIM || y < RIM || x >= WIDTH - RIM || y >= HEIGHT - RIM) return RIM_COLOUR;
  // A soft light falling off towards the corners, as under the trap's own flash.
  const dx = (x - WIDTH / 2) / WIDTH;
  const dy = (y - HEIGHT / 2) / HEIGHT;
  const light = 1 - (dx * dx + dy * dy) * 0.5;
  const grid = (x - RIM) % GRID === 0 || (y - RIM) % GRID === 0 ? 0.9 : 1;
  const shade = light * grid;
  return [Math.round(238 * shade), Math.round(236 * shade), Math.round(226 * shade)];
}

/** The empty tray, painted once: every photo starts from a copy. */
let boardPixels: Uint8Array | undefined;

function pick(random: Random, mix: Readonly<Record<string, number>>): string {
  const entries = Object.entries(mix);
  const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
  let u = random.next() * total;
  for (const [key, weight] of entries) {
    u -= weight;
    if (u <= 0) return key;
  }
  return entries[entries.length - 1]![0];
}

/** What a catch photo shows: the picture and how many of each species are on it. */
export interface CatchPhoto {
  png: Buffer;
  counts: Record<string, number>;
}

/**
 * A photo of a light trap's collecting tray after a night's catch: `insects` insects of the
 * region's common pests (drawn in proportion to a summer night's mix unless `mix` is given),
 * lying at random places and headings. A 320×240 PNG of a few tens of kilobytes.
 */
export function drawCatchPhoto(
  random: Random,
  insects: number,
  mix: Readonly<Record<string, number>> = NIGHT_MIX,
): CatchPhoto {
  boardPixels ??= new Canvas(WIDTH, HEIGHT, board).pixels;
  const canvas = new Canvas(WIDTH, HEIGHT, boardPixels);
  const counts: Record<string, number> = {};
  const drawn = Math.min(MAX_DRAWN, Math.max(0, Math.round(insects)));
  // Big ones first, so the small hoppers lie on top and stay visible.
  const keys = Array.from({ length: drawn }, () => pick(random, mix)).sort(
    (a, b) => INSECT_LOOKS[b]!.length - INSECT_LOOKS[a]!.length,
  );
  for (const key of keys) {
    counts[key] = (counts[key] ?? 0) + 1;
    const margin = RIM + 12;
    drawInsect(
      canvas,
      INSECT_LOOKS[key]!,
      random.between(margin, WIDTH - margin),
      random.between(margin, HEIGHT - margin),
      random.between(0, Math.PI * 2),
      1,
      random,
    );
  }
  return { png: canvas.png(), counts };
}

/** A catalogue picture of one species: the insect large on a pale card, facing up and right. */
export function drawSpeciesPortrait(key: string): Buffer {
  const look = INSECT_LOOKS[key];
  if (!look) throw new Error(`no look for species ${key}`);
  const canvas = new Canvas(240, 180, (x, y) => {
    const shade = 1 - (Math.abs(x - 120) / 240 + Math.abs(y - 90) / 180) * 0.12;
    return [Math.round(246 * shade), Math.round(244 * shade), Math.round(236 * shade)];
  });
  const scale = 96 / look.length;
  canvas.ellipse(
    116,
    102,
    look.length * scale * 0.5,
    look.length * scale * 0.22,
    -0.5,
    [200, 198, 190],
    0.6,
  );
  drawInsect(canvas, look, 112, 96, -0.5, scale);
  return canvas.png();
}
