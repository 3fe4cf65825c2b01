/**
 * Where the browser finds each page machine's provided logic (issue 26; src/page-actors.tsx): a
 * dynamic import of the page's area wiring file, so no area's wiring is in the sign-in page's first
 * load, and an area's file is fetched once, the first time one of its pages renders. An area adds a
 * line per page: `plans: () => import('./monetization-actors').then((m) => m.monetizationPages.plans)`.
 */
import type { PageLogicLoaders } from '../page-actors';

const monetization = () => import('./monetization-actors').then((m) => m.monetizationPages);
const appcms = () => import('./appcms-actors').then((m) => m.appcmsPages);
const admin = () => import('./admin-actors').then((m) => m.adminPages);
const support = () => import('./support-actors').then((m) => m.supportPages());
const account = () => import('./account-actors').then((m) => m.accountPages);
const content = () => import('./content-actors').then((m) => m.contentPages());
const media = () => import('./media-actors').then((m) => m.mediaPages());
const analytics = () => import('./report-actors').then((m) => m.analyticsPages);
const qoeAlerts = () => import('./qoe-alert-actors').then((m) => m.qoeAlertPages);
const qoe = () => import('./qoe-actors').then((m) => m.qoePages);

export const PAGE_LOGIC_LOADERS: PageLogicLoaders = {
  plans: () => monetization().then((pages) => pages.plans),
  offers: () => monetization().then((pages) => pages.offers),
  planGroups: () => monetization().then((pages) => pages.planGroups),
  coupons: () => monetization().then((pages) => pages.coupons),
  models: () => monetization().then((pages) => pages.models),
  appcmsBrand: () => appcms().then((pages) => pages.appcmsBrand),
  appcmsSettings: () => appcms().then((pages) => pages.appcmsSettings),
  appcmsDevices: () => appcms().then((pages) => pages.appcmsDevices),
  appcmsService: () => appcms().then((pages) => pages.appcmsService),
  appcmsTemplate: () => appcms().then((pages) => pages.appcmsTemplate),
  appcmsOverview: () => appcms().then((pages) => pages.appcmsOverview),
  staff: () => admin().then((pages) => pages.staff),
  audit: () => admin().then((pages) => pages.audit),
  setPassword: () => admin().then((pages) => pages.setPassword),
  subscriberSearch: () => support().then((pages) => pages.subscriberSearch),
  subscriber: () => support().then((pages) => pages.subscriber),
  ownSessions: () => account().then((pages) => pages.ownSessions),
  twoFactor: () => account().then((pages) => pages.twoFactor),
  contentDetail: () => content().then((pages) => pages.contentDetail),
  contentCreate: () => content().then((pages) => pages.contentCreate),
  contentAvailability: () => content().then((pages) => pages.contentAvailability),
  contentArtwork: () => content().then((pages) => pages.contentArtwork),
  countryGroups: () => content().then((pages) => pages.countryGroups),
  licences: () => content().then((pages) => pages.licences),
  mediaLibrary: () => media().then((pages) => pages.mediaLibrary),
  mediaAsset: () => media().then((pages) => pages.mediaAsset),
  mediaItemVideo: () => media().then((pages) => pages.mediaItemVideo),
  mediaPlayer: () => media().then((pages) => pages.mediaPlayer),
  report: () => analytics().then((pages) => pages.report),
  qoeFilters: () => qoe().then((pages) => pages.qoeFilters),
  qoeViews: () => qoe().then((pages) => pages.qoeViews),
  qoeView: () => qoe().then((pages) => pages.qoeView),
  qoeAlerts: () => qoeAlerts().then((pages) => pages.qoeAlerts),
  qoeAlertCount: () => qoeAlerts().then((pages) => pages.qoeAlertCount),
  qoeSaveView: () => qoeAlerts().then((pages) => pages.qoeSaveView),
  qoeSavedViews: () => qoeAlerts().then((pages) => pages.qoeSavedViews),
  ingestDeadLetters: () => qoeAlerts().then((pages) => pages.ingestDeadLetters),
};
