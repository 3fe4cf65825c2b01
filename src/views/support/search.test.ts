import { describe, expect, it } from 'vitest';
import { SUPPORT_MESSAGES } from '../../../common/support';
import { searchOf, searchStartOf, USERS_MAX_PAGE, usersSearchOf, validateUsersSearch } from './search';

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
      filters: { status: 'active', state: '', plan: '', network: 'sports' }, offset: 20, limit: 20, failedMessage: SUPPORT_MESSAGES.searchFailed,
    });
    expect(searchStartOf({})).toMatchObject({ filters: { status: '', state: '', plan: '', network: '' }, offset: 0 });
  });

  it("writes a query's filters, status and page as the address, never its typed text (issue 38: a clamped page goes back there)", () => {
    expect(usersSearchOf({ search: 'maria@example.com', filters: { status: 'closed', state: 'paying', plan: '', network: 'sports' }, offset: 40, limit: 20 }))
      .toEqual({ status: 'closed', state: 'paying', network: 'sports', page: 3 });
    expect(usersSearchOf({ search: '', filters: { status: 'bogus', state: '' }, offset: 0, limit: 20 })).toEqual({});
  });
});
