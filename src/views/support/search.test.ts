import { describe, expect, it } from 'vitest';
import { searchOf, searchStartOf, USERS_MAX_PAGE, validateUsersSearch } from './search';

describe("the Users list's address (issues 27 and 38)", () => {
  it('keeps a known status and a page from 2; drops anything else, never throwing', () => {
    expect(validateUsersSearch({ status: 'suspended', page: 3 })).toEqual({ status: 'suspended', page: 3 });
    expect(validateUsersSearch({ page: '2' })).toEqual({ page: 2 });
    expect(validateUsersSearch({ status: 'deleted', page: 1 })).toEqual({});
    expect(validateUsersSearch({ status: ['active'], page: 1.5 })).toEqual({});
    expect(validateUsersSearch({ page: 'x' })).toEqual({});
    expect(validateUsersSearch({ page: ' ' })).toEqual({});
    expect(validateUsersSearch({ page: 0 })).toEqual({});
    expect(validateUsersSearch({ page: USERS_MAX_PAGE })).toEqual({ page: USERS_MAX_PAGE });
    expect(validateUsersSearch({ page: USERS_MAX_PAGE + 1 })).toEqual({});
  });

  it('never reads a typed search text from the address (personal data)', () => {
    expect(validateUsersSearch({ query: 'maria@example.com', search: 'maria@example.com' })).toEqual({});
  });

  it('writes the filters, status and page, leaving out unset ones and page 1', () => {
    expect(searchOf({ state: 'paying', plan: null, network: null }, 'closed', 4)).toEqual({ state: 'paying', status: 'closed', page: 4 });
    expect(searchOf({ state: null, plan: null, network: null }, null, 1)).toEqual({});
    expect(searchOf({ state: null, plan: null, network: null })).toEqual({});
  });

  it('starts the search from the address', () => {
    expect(searchStartOf({ status: 'active', page: 2, network: 'sports' })).toEqual({
      filters: { state: null, plan: null, network: 'sports' }, status: 'active', page: 2,
    });
    expect(searchStartOf({})).toEqual({ filters: { state: null, plan: null, network: null }, status: null, page: 1 });
  });
});
