/**
 * The stack's monitoring resources with references resolved: its metric alarms, its log metric filters and its
 * schedules, as the local alarms (../alarms) read them. Their fields are checked there, where they are used.
 */
import type { AttributeRegistry } from "./attributes";
import { resolveDeep } from "./references";
import type { ResourceBody, StackFile } from "./stack-file";

/** One resolved resource of a monitoring type: its address (`type.name`) and its body as Terraform JSON. */
export interface MonitoringResource {
  readonly address: string;
  readonly body: ResourceBody;
}

export interface ProvisionedMonitoring {
  readonly alarms: readonly MonitoringResource[];
  readonly metricFilters: readonly MonitoringResource[];
  readonly schedules: readonly MonitoringResource[];
}

export function monitoringOf(stack: StackFile, registry: AttributeRegistry): ProvisionedMonitoring {
  const resolved = (type: string): MonitoringResource[] =>
    Object.entries(stack.resources[type] ?? {}).map(([id, raw]) => {
      const address = `${type}.${id}`;
      return { address, body: resolveDeep(raw, registry.lookup, address) };
    });
  return { alarms: resolved("aws_cloudwatch_metric_alarm"), metricFilters: resolved("aws_cloudwatch_log_metric_filter"), schedules: resolved("aws_scheduler_schedule") };
}
