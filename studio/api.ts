import type {
  ActionAnswer,
  CatalogueTexts,
  ChangeDetail,
  ChangeSummary,
  CheckedEdit,
  Comparison,
  EditRequest,
  ExperimentStart,
  ExperimentSummary,
  FunnelReport,
  PublishStatus,
  RolloutRequest,
  SessionAnswer,
  VersionsAnswer,
} from '../catalogue/studio-contract';

/**
 * The studio's API client (server/routes/studio): the person signed in, the catalogue's files, the
 * check of an edit, drafts and their review, the versions and the rebuild of the running app. The
 * shapes are catalogue/studio-contract.ts. An answer the server refuses throws an ApiError with its
 * code (the studio words it from studio/locales); a 401 (or a 403 that no longer admits the account)
 * also tells the session it ended.
 */
const API = '/dev/studio/api';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly answer: ActionAnswer & { error?: string },
  ) {
    super(answer.message ?? answer.error ?? `HTTP ${status}`);
    this.name = 'ApiError';
  }
  get code(): string {
    return this.answer.error ?? `HTTP_${this.status}`;
  }
}

/** Refusals that mean the person is no longer admitted (server/routes/studio/people.ts). */
const NOT_ADMITTED = ['SIGN_IN_REQUIRED', 'NO_STUDIO_ROLE', 'SECOND_FACTOR_REQUIRED'];

let onSignedOut: () => void = () => undefined;
/** Who to tell when the server no longer admits the person (the session ended or never was). */
export function whenSignedOut(listener: () => void): void {
  onSignedOut = listener;
}

async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${API}${path}`, {
    method,
    ...(body !== undefined ? { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) } : {}),
  });
  const data = (await response.json().catch(() => ({}))) as T & ActionAnswer & { error?: string };
  if ((response.status === 401 || response.status === 403) && NOT_ADMITTED.includes(data.error ?? '')) onSignedOut();
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

const get = <T>(path: string) => request<T>('GET', path);
const post = <T>(path: string, body: unknown = {}) => request<T>('POST', path, body);

export const whoAmI = () => get<SessionAnswer>('/me');
/** Ends the product's session of this browser (studio people sign in on the product's sign-in page). */
export const signOut = () => request<SessionAnswer>('DELETE', '/session');

export const loadCatalogue = () => get<CatalogueTexts>('/catalogue');

/** The check of an edit (nothing is kept). */
export const previewEdit = (edit: EditRequest) => post<CheckedEdit>('/preview', edit);

export const listChanges = () => get<{ changes: ChangeSummary[] }>('/changes');
export const loadChange = (id: number) => get<{ change: ChangeDetail }>(`/changes/${id}`);

/** Saves an edit as a new draft, or as the draft `id` again. */
export const saveDraft = (id: number | undefined, edit: EditRequest) =>
  id === undefined ? post<ActionAnswer>('/changes', edit) : request<ActionAnswer>('PUT', `/changes/${id}`, edit);

export type ChangeAction = 'review' | 'approve' | 'send-back' | 'discard' | 'publish' | 'rollout/promote' | 'rollout/stop';
/** An action on a change; a decision (approve, send back, publish) names the revision the page showed. */
export const changeAction = (id: number, action: ChangeAction, details: { revision?: number; comment?: string } = {}) =>
  post<ActionAnswer>(`/changes/${id}/${action}`, details);

/** Rolls an approved change of texts out to a share of the visitors (and hosts, languages) before everyone (an approver's). */
export const rollOut = (id: number, request: RolloutRequest) => post<ActionAnswer>(`/changes/${id}/rollout`, request);

export const listVersions = () => get<VersionsAnswer>('/versions');
export const compareVersions = (from: number, to: number) => get<Comparison>(`/compare?from=${from}&to=${to}`);
/** Rolls back to `version`, naming the newest version the history showed (`latest`). */
export const rollBack = (version: number, latest: number) => post<ActionAnswer>(`/versions/${version}/rollback`, { latest });

export const publishStatus = () => get<PublishStatus>('/publish');

/** A screen's funnel per variant, of one version or all (issue 38). */
export const loadFunnel = (screen: string, version?: string) =>
  get<FunnelReport>(`/funnel?screen=${encodeURIComponent(screen)}${version ? `&version=${encodeURIComponent(version)}` : ''}`);
export const listExperiments = () => get<{ experiments: ExperimentSummary[] }>('/experiments');
/** Starts an experiment (an approver's): variants of one text of one screen, each with its share. */
export const startExperiment = (experiment: ExperimentStart) => post<{ ok: true }>('/experiments', experiment);
/** Promotes `winner` (every visitor sees it) or stops the experiment (every visitor sees the catalogue's text). */
export const endExperiment = (id: string, action: 'promote' | 'stop', winner?: string) =>
  post<{ ok: true }>(`/experiments/${encodeURIComponent(id)}/${action}`, winner ? { winner } : {});
