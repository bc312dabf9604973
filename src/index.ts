// The package's main export (`import { startMock } from 'shortlink-mock'`): start a mock in this
// process or control one running elsewhere, the API's types generated from openapi.yaml, and the
// contract suite as a function. Everything here is public: a change is a change of the package's API.
export { startMock, type RunningMock } from './toolkit/start-mock.js';
export type { StartMockOptions } from './toolkit/start-options.js';
export { connectMock, FIXTURE_API_KEYS, type AccountOptions, type ConnectOptions, type FixtureApiKeys, type MockControl, type ScenarioOptions, type VarietyOptions } from './toolkit/control.js';
export { AdminApiError } from './toolkit/admin-client.js';
export type { Account, ActiveScenario, Coverage, Health, JournalEntry, JournalFilter, KeyCoverage, Outcome as CoverageOutcome, ResetResult, Snapshot, UpstreamOutcome, VarietyDimension, VarietyOverview, VarietySetting, Violation, ViolationReport, ViolationGroup, DistinctViolation, ViolationExample, ViolationSide } from './toolkit/admin-types.js';
export { ConfigError } from './process/config.js';
export { StartupError } from './process/startup.js';

// The API's request and response types, generated from openapi.yaml (src/generated/openapi.ts).
export type { CreateLinkRequest, Domain, ErrorBody as ApiError, ErrorBody as Error, ErrorCode, Link, Tag, UpdateLinkRequest } from './core/api-types.js';

// The contract suite (`shortlink-mock contract`) as a function.
export { runContract } from './toolkit/run-contract.js';
export { formatReport as formatContractReport, toJUnit as contractReportToJUnit } from './contract/report.js';
export type { ContractOptions, ContractOptions as RunContractOptions, Report as ContractReport } from './contract/runner.js';
export type { CheckResult, Outcome as CheckOutcome } from './contract/check-types.js';
