import { describe, expect, it } from 'vitest';
import { ANALYTICS_GROUPS, ANALYTICS_TOOL_GROUPS, APPCMS_PAGES, MONETIZATION_TABS } from './config';
import { QOE_ALERT_MESSAGES, QOE_SAVED_VIEW_MESSAGES } from '../common/messages/qoe-alerts';
import { COLORS } from './theme/colors';
import { readFileSync } from 'node:fs';

describe('spec constants', () => {
  it('lists all 22 Dashboard 360 sub-pages of spec §2.5', () => {
    const paths = ANALYTICS_GROUPS.flatMap((g) => g.pages.map((p) => p.path));
    expect(paths).toHaveLength(22);
    expect(new Set(paths).size).toBe(22);
  });
  it('adds the alerts and saved views as a group of their own, outside the spec\'s list, titled as their pages are (issue 41)', () => {
    expect(ANALYTICS_TOOL_GROUPS.flatMap((g) => g.pages)).toEqual([
      { path: '/analytics/alerts', title: QOE_ALERT_MESSAGES.pageTitle }, { path: '/analytics/saved', title: QOE_SAVED_VIEW_MESSAGES.listTitle },
    ]);
    const spec = new Set(ANALYTICS_GROUPS.map((g) => g.group));
    expect(ANALYTICS_TOOL_GROUPS.filter((g) => spec.has(g.group))).toEqual([]);
  });
  it('lists the AppCMS and Monetization sub-pages', () => {
    expect(APPCMS_PAGES.map((p) => p.path)).toEqual(['/appcms/template', '/appcms/brand', '/appcms/settings', '/appcms/devices', '/appcms/service']);
    expect(MONETIZATION_TABS.map((t) => t.route)).toEqual(['/monetization/models', '/monetization/plans', '/monetization/planGroups', '/monetization/offers', '/monetization/coupon']);
  });
  it('index.html carries the title, description and theme-color of the spec', () => {
    const html = readFileSync('index.html', 'utf8');
    expect(html).toContain('<title>CMS Tools</title>');
    expect(html).toContain('<meta name="description" content="CMS Tools" />');
    expect(html).toContain(`<meta name="theme-color" content="${COLORS.themeColorMeta}" />`);
  });
});
