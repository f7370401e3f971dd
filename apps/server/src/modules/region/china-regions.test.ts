import { describe, expect, it } from 'vitest';
import { loadChinaRegions, type ChinaRegion } from './china-regions';

const regions = loadChinaRegions();
const byCode = new Map(regions.map((region) => [region.code, region]));
const ofType = (type: ChinaRegion['type']) => regions.filter((region) => region.type === type);
const childrenOf = (code: string) => regions.filter((region) => region.parentCode === code);

describe('loadChinaRegions', () => {
  it('covers every province, city and county of the package', () => {
    // 31 mainland provinces, municipalities and autonomous regions, plus Taiwan, HK and Macau.
    expect(ofType('province')).toHaveLength(34);
    expect(ofType('city').length).toBeGreaterThanOrEqual(330);
    expect(ofType('city').length).toBeLessThanOrEqual(345);
    expect(ofType('county').length).toBeGreaterThanOrEqual(2800);
    expect(ofType('county').length).toBeLessThanOrEqual(2950);
  });

  it('gives unique 6-digit codes and lists every parent before its children', () => {
    expect(new Set(regions.map((region) => region.code)).size).toBe(regions.length);
    const seen = new Set<string>();
    for (const region of regions) {
      expect(region.code).toMatch(/^\d{6}$/);
      if (region.parentCode !== null) expect(seen.has(region.parentCode)).toBe(true);
      seen.add(region.code);
    }
  });

  it('nests provinces, cities and counties by level', () => {
    for (const region of regions) {
      const parent = region.parentCode === null ? undefined : byCode.get(region.parentCode);
      if (region.type === 'province') expect(parent).toBeUndefined();
      if (region.type === 'city') expect(parent?.type).toBe('province');
      if (region.type === 'county') expect(['province', 'city']).toContain(parent?.type);
      if (parent) expect(region.code.slice(0, 2)).toBe(parent.code.slice(0, 2));
    }
  });

  it('numbers siblings 1..n in code order', () => {
    const parents = new Set(regions.map((region) => region.parentCode));
    for (const parentCode of parents) {
      const siblings = regions.filter((region) => region.parentCode === parentCode);
      expect(siblings.map((region) => region.sequence)).toEqual(siblings.map((_, i) => i + 1));
      const codes = siblings.map((region) => region.code);
      expect(codes).toEqual([...codes].sort());
    }
  });

  it('knows well-known regions', () => {
    expect(byCode.get('110000')).toMatchObject({
      name: '北京市',
      type: 'province',
      parentCode: null,
    });
    expect(byCode.get('440300')).toMatchObject({
      name: '深圳市',
      type: 'city',
      parentCode: '440000',
    });
    expect(byCode.get('440305')).toMatchObject({
      name: '南山区',
      type: 'county',
      parentCode: '440300',
    });
    expect(byCode.get('330100')).toMatchObject({
      name: '杭州市',
      type: 'city',
      parentCode: '330000',
    });
    expect(childrenOf('330100').map((region) => region.name)).toContain('西湖区');
  });

  it('hangs the districts of municipalities, Hong Kong and Macau directly under the province', () => {
    for (const code of ['110000', '120000', '310000', '500000', '810000', '820000']) {
      const children = childrenOf(code);
      expect(children.length).toBeGreaterThan(0);
      expect(children.every((region) => region.type === 'county')).toBe(true);
    }
    expect(byCode.get('110105')).toMatchObject({ name: '朝阳区', parentCode: '110000' });
    expect(byCode.get('500229')).toMatchObject({ name: '城口县', parentCode: '500000' });
    expect(byCode.get('810001')).toMatchObject({ name: '中西区', parentCode: '810000' });
    expect(byCode.get('820001')).toMatchObject({ name: '花地玛堂区', parentCode: '820000' });
    expect(byCode.get('710000')).toMatchObject({ name: '台湾省', type: 'province' });
  });

  it('groups counties governed by the province under an officially named city', () => {
    expect(byCode.get('429000')).toMatchObject({ name: '省直辖县级行政区划', type: 'city' });
    expect(byCode.get('659000')).toMatchObject({ name: '自治区直辖县级行政区划', type: 'city' });
    expect(byCode.get('429004')).toMatchObject({ name: '仙桃市', parentCode: '429000' });
    expect(byCode.get('419001')).toMatchObject({ name: '济源市', parentCode: '419000' });
  });

  it('leaves out statistical placeholders, development zones and superseded counties', () => {
    expect(regions.some((region) => region.name === '市辖区')).toBe(false);
    expect(byCode.has('130171')).toBe(false); // 石家庄高新技术产业开发区
    expect(byCode.has('330104')).toBe(false); // 江干区, abolished in 2021
    expect(byCode.has('350403')).toBe(false); // the old code of 三元区
    expect(byCode.get('350404')).toMatchObject({ name: '三元区', parentCode: '350400' });
    expect(byCode.get('330113')).toMatchObject({ name: '临平区', parentCode: '330100' });
    expect(byCode.get('350527')).toMatchObject({ name: '金门县', parentCode: '350500' });
  });
});
