import type { Condition, ConditionType } from '../../apis/staticexport/index.js';

export type ConditionStatus = Condition['status'];
export interface ConditionChange {
  type: ConditionType;
  status: ConditionStatus;
  reason: string;
  message: string;
}

/** Kubernetes API timestamps have whole seconds. */
export const rfc3339 = (date: Date): string => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * Sets a condition, keeping lastTransitionTime when the status did not change, so a
 * reconcile that changes nothing produces identical conditions (and no status write).
 */
export function setCondition(conditions: readonly Condition[], change: ConditionChange, generation: number, now: Date): Condition[] {
  const existing = conditions.find((c) => c.type === change.type);
  const next: Condition = {
    type: change.type,
    status: change.status,
    reason: change.reason,
    message: change.message,
    lastTransitionTime: existing && existing.status === change.status ? existing.lastTransitionTime : rfc3339(now),
    observedGeneration: generation,
  };
  return [...conditions.filter((c) => c.type !== change.type), next].sort((a, b) => order(a.type) - order(b.type));
}

export function removeCondition(conditions: readonly Condition[], type: ConditionType): Condition[] {
  return conditions.filter((c) => c.type !== type);
}

export function findCondition(conditions: readonly Condition[] | undefined, type: ConditionType): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

const ORDER: readonly string[] = ['Ready', 'Reconciling', 'Stalled', 'Rendered', 'BundleReady', 'ValuesPublished'];
const order = (type: string): number => (ORDER.includes(type) ? ORDER.indexOf(type) : ORDER.length);
