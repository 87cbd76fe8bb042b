import { CatalogueError, generate, summary } from '../tooling/generate';

/** `npm run generate`: the catalogue check and code generation into src/generated (tooling/generate.ts). */
generate().then(
  (project) => console.log(summary(project)),
  (error: unknown) => {
    console.error(error instanceof CatalogueError ? error.message : error);
    process.exit(1);
  },
);
