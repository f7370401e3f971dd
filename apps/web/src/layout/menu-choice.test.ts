import { describe, expect, it } from 'vitest';
import { isEmptyChoice, ownerOf, parseChoice, validChoice } from './menu-choice';

const owner = ownerOf({ tenantCode: 'demo', id: '2' }, 'ROLE_ADMIN');

describe('menu switch choice', () => {
  it('names the owner by tenant, user and role', () => {
    expect(owner).toBe('demo/2/ROLE_ADMIN');
  });

  it('reads only the owner’s own, well-formed choice', () => {
    const stored = JSON.stringify({ owner, parentId: '25', postCode: 'P1' });
    expect(parseChoice(stored, owner)).toEqual({ parentId: '25', postCode: 'P1' });
    expect(parseChoice(stored, 'demo/3/ROLE_ADMIN')).toBeUndefined();
    expect(parseChoice(stored, 'demo/2/ROLE_OPERATOR')).toBeUndefined();
    expect(parseChoice('{not json', owner)).toBeUndefined();
    expect(parseChoice(null, owner)).toBeUndefined();
    expect(parseChoice(JSON.stringify({ owner, parentId: 25 }), owner)).toBeUndefined();
    expect(parseChoice(JSON.stringify({ owner, postCode: 'P1', parentId: '' }), owner)).toEqual({
      postCode: 'P1',
    });
  });

  it('drops what the options no longer offer', () => {
    const parents = [{ id: '25', menuCode: 'admin', menuName: 'route.admin' }];
    const posts = [{ id: '1', postCode: 'P1', postName: 'Dispatcher' }];
    expect(validChoice({ parentId: '25', postCode: 'P1' }, parents, posts)).toEqual({
      parentId: '25',
      postCode: 'P1',
    });
    expect(validChoice({ parentId: '99', postCode: 'P2' }, parents, posts)).toEqual({});
    expect(isEmptyChoice({})).toBe(true);
    expect(isEmptyChoice({ postCode: 'P1' })).toBe(false);
  });
});
