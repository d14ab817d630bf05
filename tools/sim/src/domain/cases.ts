/**
 * Cases under a domain mode: the payments example's domain (the cases of earlier rounds, path for path), a drawn
 * domain per scenario with messages of its own, or half each. The construct decides which drawn domains exist
 * (`accepts`, with the scenario's props); the same seed draws the same domain.
 */
import fc from "fast-check";
import { domainCandidate, DomainMode, type SimDomain } from "./space";
import { domainShape } from "./messages";
import type { ScenarioShape } from "../scenario/generator";
import type { Scenario } from "../scenario/shape";
import { accepts, caseArbitrary, type SettingsMode, type SimCase } from "../scenario/settings-space";

/** Drawn domains the construct accepts (under its default props). */
export const drawnDomain: fc.Arbitrary<SimDomain> = domainCandidate.filter((d) => accepts({}, d));

export function domainCaseArbitrary(
  domainMode: DomainMode,
  settingsMode: SettingsMode,
  scenarios: (shape: Pick<ScenarioShape, "specs" | "attributes">) => fc.Arbitrary<Scenario>,
): fc.Arbitrary<SimCase> {
  const payments = caseArbitrary(settingsMode, scenarios({}));
  if (domainMode === DomainMode.Payments) return payments;
  const drawn = drawnDomain.chain((domain) =>
    caseArbitrary(settingsMode, scenarios(domainShape(domain)))
      // Drawn props are checked under the example's domain; the pair must hold too.
      .filter((c) => accepts(c.settings, domain))
      .map((c): SimCase => ({ ...c, domain })),
  );
  if (domainMode === DomainMode.Random) return drawn;
  return fc.oneof({ weight: 1, arbitrary: payments }, { weight: 1, arbitrary: drawn });
}
