/**
 * The repository (or image) root the server reads its contract, lists and built app from: the folder
 * with schemas/api above this module, found by the catalogue's module (one walk for both), so the same
 * code runs from the source tree (server/) and compiled (dist/server/, `npm run build`).
 */
export { CODE_ROOT as ROOT } from '../catalogue/check/root.js';
