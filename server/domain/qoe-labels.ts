/**
 * What an operator reads for a dimension's value (issue 41): '' is QOE_NOT_REPORTED; titles, series,
 * plans and networks (stored as ids) read their names, a removed one says so; every other value is its
 * own word. The QoS report's breakdown rows, the values picker and one view's dimensions all use it.
 */
import { QOE_MESSAGES, QOE_NOT_REPORTED, type QoeDimension } from '../../common/qoe';

const REMOVED: Partial<Record<QoeDimension, string>> = {
  title: QOE_MESSAGES.removedTitle,
  series: QOE_MESSAGES.removedTitle,
  plan: QOE_MESSAGES.removedPlan,
  network: QOE_MESSAGES.removedNetwork,
};

/** Whether a dimension's values are ids whose names are looked up. */
export function isNamedDimension(dimension: QoeDimension): boolean {
  return REMOVED[dimension] !== undefined;
}

/** The label of a value, given the names of the id-valued dimension's values (an empty map for the others). */
export function qoeValueLabel(dimension: QoeDimension, value: string, names: ReadonlyMap<string, string>): string {
  if (value === '') return QOE_NOT_REPORTED;
  const removed = REMOVED[dimension];
  return removed === undefined ? value : names.get(value.toLowerCase()) ?? removed;
}
