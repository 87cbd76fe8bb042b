/**
 * Windows known folders and their label keys (platform.knownFolders.*). The videos folder shows
 * 'Movies' instead of 'Videos' when the moviesLabel option (a feature flag) is set.
 */
export const KNOWN_FOLDERS = [
  'userProfile',
  'desktop',
  'downloads',
  'documents',
  'music',
  'videos',
  'movies',
  'pictures',
  'localAppData',
  'roamingAppData',
  'publicDesktop',
  'publicDocuments',
  'publicDownloads',
  'publicMusic',
  'publicPictures',
  'publicVideos',
  'startMenuPrograms',
  'programData',
  'programFiles',
  'system',
  'windows',
  'temp',
] as const;
export type KnownFolder = (typeof KNOWN_FOLDERS)[number];

export const KNOWN_FOLDER_LABEL_KEYS: Readonly<Record<KnownFolder, string>> = Object.freeze(
  Object.fromEntries(KNOWN_FOLDERS.map((folder) => [folder, `platform.knownFolders.${folder}`])) as Record<KnownFolder, string>,
);

export function isKnownFolder(key: string): key is KnownFolder {
  return (KNOWN_FOLDERS as readonly string[]).includes(key);
}

/** The i18n key of a known folder's label (videos -> movies with moviesLabel); undefined when unknown. */
export function knownFolderLabelKey(key: string, options: { moviesLabel?: boolean } = {}): string | undefined {
  if (!isKnownFolder(key)) return undefined;
  if (key === 'videos' && options.moviesLabel) return KNOWN_FOLDER_LABEL_KEYS.movies;
  return KNOWN_FOLDER_LABEL_KEYS[key];
}
