import { GetAccountSettingsCommand, GetFunctionConcurrencyCommand, LambdaClient, ResourceNotFoundException } from "@aws-sdk/client-lambda";
import { ListServiceQuotasCommand, NoSuchResourceException, ServiceQuotasClient } from "@aws-sdk/client-service-quotas";
import { GetCallerIdentityCommand, STSClient } from "@aws-sdk/client-sts";

import { awsIamReader, type IamReader } from "./aws-iam";
import { awsNameReader, type NameReader } from "./aws-names";
import type { ClientConfig } from "./client-config";

/** What the preflight reads from the account: the answers of the calls in calls.ts, nothing else. */
export interface AccountReader {
  readonly names: NameReader;
  readonly iam: IamReader;
  callerIdentity(): Promise<{ account: string; arn: string }>;
  accountSettings(): Promise<{ concurrentExecutions: number; unreservedConcurrentExecutions: number }>;
  /** The function's reservation; null when it has none; undefined when the function does not exist yet. */
  functionConcurrency(name: string): Promise<number | null | undefined>;
  /** The applied quotas of one service; undefined when Service Quotas does not list the service here. */
  serviceQuotas(serviceCode: string): Promise<{ code: string; name: string; value: number; adjustable: boolean }[] | undefined>;
}

export interface ReaderOptions {
  readonly region: string;
  /** A stand-in's endpoint (tests); AWS's own when absent. */
  readonly endpoint?: string;
  /** One service's endpoint instead (by its endpoint prefix: `pipes`, `iam` …), e.g. a host that does not resolve. */
  readonly endpoints?: ReadonlyMap<string, string>;
  readonly credentials?: { accessKeyId: string; secretAccessKey: string };
}


/** The reader on the AWS SDK, with the default credential chain unless credentials are given. */
export function awsReader(options: ReaderOptions): AccountReader {
  const configOf = (service: string): ClientConfig => {
    const endpoint = options.endpoints?.get(service) ?? options.endpoint;
    return { region: options.region, ...(endpoint ? { endpoint } : {}), ...(options.credentials ? { credentials: options.credentials } : {}), maxAttempts: 2 };
  };
  const sts = new STSClient(configOf("sts"));
  const lambda = new LambdaClient(configOf("lambda"));
  const quotas = new ServiceQuotasClient(configOf("servicequotas"));
  return {
    names: awsNameReader(configOf),
    iam: awsIamReader(configOf("iam")),
    async callerIdentity() {
      const out = await sts.send(new GetCallerIdentityCommand({}));
      return { account: out.Account ?? "?", arn: out.Arn ?? "?" };
    },
    async accountSettings() {
      const out = await lambda.send(new GetAccountSettingsCommand({}));
      return { concurrentExecutions: out.AccountLimit?.ConcurrentExecutions ?? 0, unreservedConcurrentExecutions: out.AccountLimit?.UnreservedConcurrentExecutions ?? 0 };
    },
    async functionConcurrency(name) {
      try {
        const out = await lambda.send(new GetFunctionConcurrencyCommand({ FunctionName: name }));
        return out.ReservedConcurrentExecutions ?? null;
      } catch (error) {
        if (error instanceof ResourceNotFoundException) return undefined;
        throw error;
      }
    },
    async serviceQuotas(serviceCode) {
      const out: { code: string; name: string; value: number; adjustable: boolean }[] = [];
      let NextToken: string | undefined;
      try {
        do {
          const page = await quotas.send(new ListServiceQuotasCommand({ ServiceCode: serviceCode, NextToken }));
          for (const q of page.Quotas ?? []) out.push({ code: q.QuotaCode ?? "?", name: q.QuotaName ?? "?", value: q.Value ?? NaN, adjustable: q.Adjustable ?? false });
          NextToken = page.NextToken;
        } while (NextToken);
      } catch (error) {
        if (error instanceof NoSuchResourceException) return undefined;
        throw error;
      }
      return out;
    },
  };
}
