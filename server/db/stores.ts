/**
 * The stores the rules are handed (issue 39): each gathers the SQL functions one domain module uses,
 * bound to the database (server/db/bound-store.ts), with `transaction(work)` where the module writes.
 * The domain declares their shapes (server/domain/ports.ts); the composition root
 * (server/composition.ts) builds them here and the compiler checks that they fit.
 */
import { inOneTransaction } from './ambient-transaction';
import type { Db } from './client';
import { insertAuditEvent } from './audit-repository';
import {
  applyScheduledPublish, applyScheduledUnpublish, clearJob, countCountryGroups, countryGroupNameTaken, deleteCountryGroup, deleteLicence,
  existingJobIds, findCountryGroup, findItem, findLicence, insertCountryGroup, insertLicence, itemsWithSchedules, licencesOfItems,
  listCountryGroups, listLicences, lockMatching, setJob, setStatusOf, updateAvailability, updateCountryGroup, updateLicence,
} from './availability-repository';
import { bindDb, transactionalStore } from './bound-store';
import { episodeSeasons, episodeTaken, findSeries, insertContent, seriesEpisodes } from './content-create-repository';
import {
  applySessionCounters, dirtySliceCount, foldDirtySlices, lookUpWrittenSessions, recordDeadLetters, sessionsWithoutStart, waitingBatches, writeBatches, WrittenSessions,
} from './ingest-repository';
import { SessionCounters } from './ingest-session-counters';
import { runIngestMaintenance } from './raw-history';
import {
  cohortRetention, cohortRevenue, contentInfo, contentOptions, currenciesOf, liveSessions, paymentsBy, planNames, planOptions, playbackByDay,
  playbackByKey, signupsByDay, subscriptionsByDay, watchByDayAndContent,
} from './report-repository';
import { bulkSetStatus, contentStats, findContent, listContent, toItem, updateContent } from './content-repository';
import * as monetization from './monetization-repository';
import {
  findRevision, findRevisions, insertRevision, insertRevisions, latestRevisionSeqs, listRevisions, objectKey, requestRevisions,
} from './revision-repository';
import { serviceCacheOf } from './service-cache';
import { recordSiteFile, siteMayReference } from './upload-files-repository';

/** What every write records beside it: its audit row and its revision. */
const WRITE_RECORDS = { insertAuditEvent, insertRevision };

/** The content library (server/domain/content.ts). */
export function createContentStore(db: Db) {
  return {
    ...transactionalStore(db, { ...WRITE_RECORDS, listContent, findContent, contentStats, updateContent, bulkSetStatus, licencesOfItems, siteMayReference }),
    toItem,
  };
}

/** Availability, country groups and licences (server/domain/content-availability.ts). */
export function createAvailabilityStore(db: Db) {
  return transactionalStore(db, {
    ...WRITE_RECORDS, listCountryGroups, findCountryGroup, countryGroupNameTaken, insertCountryGroup, updateCountryGroup, deleteCountryGroup,
    countCountryGroups, listLicences, findLicence, insertLicence, updateLicence, deleteLicence, licencesOfItems, findItem, updateAvailability,
    lockMatching, setStatusOf,
  });
}

/** The publish at / unpublish at jobs' rows (server/domain/content-scheduler.ts). */
export function createSchedulerStore(db: Db) {
  return transactionalStore(db, {
    ...WRITE_RECORDS, findItem, setJob, itemsWithSchedules, existingJobIds, clearJob, applyScheduledPublish, applyScheduledUnpublish, licencesOfItems,
  });
}

/** Creating content and its artwork, an item's family (server/domain/content-create.ts). */
export function createContentCreateStore(db: Db) {
  return {
    ...transactionalStore(db, { ...WRITE_RECORDS, insertContent, findContent, findSeries, episodeSeasons, episodeTaken, seriesEpisodes, recordSiteFile, siteMayReference }),
    toItem,
  };
}

/** Plans, plan groups, offers, coupons and the settings (server/domain/monetization.ts). */
export function createMonetizationStore(db: Db) {
  const { writeAudit, siteSettings, updateSiteSettings, listPlans, findPlan, sitePlanIds, insertPlan, updatePlan, deletePlan, subscriptionCounts,
    priceVersionCounts, keepPriceVersion, scheduleRenewalMoves, applyRenewalMoves, planInUse, listPlanGroups, findPlanGroup, insertPlanGroup,
    updatePlanGroup, setPlanGroupPosition, listOffers, findOffer, insertOffer, updateOffer, listCoupons, allCoupons, findCoupon, insertCoupon,
    codeTaken, updateCoupon, setCouponStatus, lockCouponByCode, redemptionCounts, siteSubscriberExists, insertRedemption, insertBatchCodes } = monetization;
  return {
    ...transactionalStore(db, {
      insertRevision, insertRevisions, writeAudit, siteSettings, updateSiteSettings, listPlans, findPlan, sitePlanIds, insertPlan, updatePlan, deletePlan,
      subscriptionCounts, priceVersionCounts, keepPriceVersion, scheduleRenewalMoves, applyRenewalMoves, planInUse, listPlanGroups, findPlanGroup,
      insertPlanGroup, updatePlanGroup, setPlanGroupPosition, listOffers, findOffer, insertOffer, updateOffer, listCoupons, allCoupons, findCoupon,
      insertCoupon, codeTaken, updateCoupon, setCouponStatus, lockCouponByCode, redemptionCounts, siteSubscriberExists, insertRedemption, insertBatchCodes,
    }),
    cache: serviceCacheOf(db),
  };
}

/** One object's history, Restore and Undo (server/domain/history.ts); `db` is the services' ambient view. */
export function createRevisionHistoryStore(db: Db) {
  return {
    ...bindDb(db, { listRevisions, findRevision, findRevisions, requestRevisions, latestRevisionSeqs }),
    objectKey,
    inOneTransaction: <T>(work: () => Promise<T>) => inOneTransaction(db, work),
    cache: serviceCacheOf(db),
  };
}

/** What the ingestion pipeline's consumers and fold worker write and read (server/domain/ingest-pipeline.ts). */
export function createIngestStore(db: Db) {
  return {
    ...bindDb(db, { lookUpWrittenSessions, recordDeadLetters, writeBatches, applySessionCounters, foldDirtySlices, dirtySliceCount, runIngestMaintenance }),
    newWrittenSessions: () => new WrittenSessions(),
    newSessionCounters: () => new SessionCounters(),
    waitingBatches,
    sessionsWithoutStart,
  };
}

/** The report builders' rollup reads (server/domain/reports/reads.ts). */
export function createReportReads(db: Db) {
  return bindDb(db, {
    playbackByDay, playbackByKey, subscriptionsByDay, paymentsBy, watchByDayAndContent, signupsByDay, cohortRetention, cohortRevenue, currenciesOf,
    liveSessions, contentInfo, planOptions, contentOptions, planNames,
  });
}
