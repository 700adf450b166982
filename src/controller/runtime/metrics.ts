import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { QueueMetrics } from './work-queue.js';

/**
 * Controller metrics under controller-runtime's and client-go's names, so existing
 * dashboards and alerts for Go operators work unchanged. Labels are bounded:
 * controller/queue name and result only.
 */
export interface ControllerMetrics {
  reconcile(result: 'success' | 'error' | 'requeue' | 'requeue_after', seconds: number): void;
  queue: QueueMetrics;
  activeWorkers(n: number): void;
  leader(isLeader: boolean): void;
}

export function createControllerMetrics(registry: Registry, controller: string, maxConcurrent: number): ControllerMetrics {
  const reconcileTotal = new Counter({ name: 'controller_runtime_reconcile_total', help: 'Total number of reconciliations per controller', labelNames: ['controller', 'result'], registers: [registry] });
  const reconcileErrors = new Counter({ name: 'controller_runtime_reconcile_errors_total', help: 'Total number of reconciliation errors per controller', labelNames: ['controller'], registers: [registry] });
  const reconcileTime = new Histogram({
    name: 'controller_runtime_reconcile_time_seconds', help: 'Length of time per reconciliation per controller', labelNames: ['controller'], registers: [registry],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.25, 1.5, 1.75, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60],
  });
  new Gauge({ name: 'controller_runtime_max_concurrent_reconciles', help: 'Maximum number of concurrent reconciles per controller', labelNames: ['controller'], registers: [registry] }).set({ controller }, maxConcurrent);
  const active = new Gauge({ name: 'controller_runtime_active_workers', help: 'Number of currently used workers per controller', labelNames: ['controller'], registers: [registry] });
  const depth = new Gauge({ name: 'workqueue_depth', help: 'Current depth of workqueue', labelNames: ['name'], registers: [registry] });
  const adds = new Counter({ name: 'workqueue_adds_total', help: 'Total number of adds handled by workqueue', labelNames: ['name'], registers: [registry] });
  const retries = new Counter({ name: 'workqueue_retries_total', help: 'Total number of retries handled by workqueue', labelNames: ['name'], registers: [registry] });
  const exp = [1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 0.01, 0.1, 1, 10];
  const latency = new Histogram({ name: 'workqueue_queue_duration_seconds', help: 'How long in seconds an item stays in workqueue before being requested', labelNames: ['name'], buckets: exp, registers: [registry] });
  const work = new Histogram({ name: 'workqueue_work_duration_seconds', help: 'How long in seconds processing an item from workqueue takes', labelNames: ['name'], buckets: exp, registers: [registry] });
  const leader = new Gauge({ name: 'leader_election_master_status', help: 'Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master', labelNames: ['name'], registers: [registry] });
  // Zero-valued series from the start, as controller-runtime does, so rate() and alerts work at once.
  for (const result of ['success', 'error', 'requeue', 'requeue_after']) reconcileTotal.inc({ controller, result }, 0);
  reconcileErrors.inc({ controller }, 0);
  active.set({ controller }, 0);
  depth.set({ name: controller }, 0);
  adds.inc({ name: controller }, 0);
  retries.inc({ name: controller }, 0);
  leader.set({ name: controller }, 0);
  return {
    reconcile(result, seconds) {
      reconcileTotal.inc({ controller, result });
      if (result === 'error') reconcileErrors.inc({ controller });
      reconcileTime.observe({ controller }, seconds);
    },
    queue: {
      add: () => adds.inc({ name: controller }),
      depth: (n) => depth.set({ name: controller }, n),
      latency: (s) => latency.observe({ name: controller }, s),
      workDuration: (s) => work.observe({ name: controller }, s),
      retry: () => retries.inc({ name: controller }),
    },
    activeWorkers: (n) => active.set({ controller }, n),
    leader: (isLeader) => leader.set({ name: controller }, isLeader ? 1 : 0),
  };
}
