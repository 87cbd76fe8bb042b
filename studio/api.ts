import type { CatalogueTexts, CheckedEdit, EditRequest, PublishStatus, SaveAnswer } from '../catalogue/studio-contract';

/**
 * The studio's API client (server/routes/studio): the catalogue's files, the check of an edit, its
 * save and the rebuild of the running app. The shapes are catalogue/studio-contract.ts.
 */
const API = '/dev/studio/api';

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(`${API}${path}`);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return (await response.json()) as T;
}

async function postJson<T>(path: string, body: unknown): Promise<{ status: number; data: T }> {
  const response = await fetch(`${API}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, data: (await response.json()) as T };
}

export const loadCatalogue = () => getJson<CatalogueTexts>('/catalogue');

/** The check of an edit (nothing is written). */
export async function previewEdit(edit: EditRequest): Promise<CheckedEdit> {
  return (await postJson<CheckedEdit>('/preview', edit)).data;
}

/** Saves an edit: 200 saved, 422 refused with the check's problems; anything else throws. */
export async function saveEdit(edit: EditRequest): Promise<{ refused: boolean; answer: SaveAnswer }> {
  const { status, data } = await postJson<SaveAnswer>('/save', edit);
  if (status === 422) return { refused: true, answer: data };
  if (status !== 200 || !data.saved) throw new Error(data.message ?? `HTTP ${status}`);
  return { refused: false, answer: data };
}

export const publishStatus = () => getJson<PublishStatus>('/publish');
