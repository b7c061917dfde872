// typescript-eslint, resolved from this workspace: here `typescript` is the TypeScript 6 compiler API that
// typescript-eslint reads types through. The build's compiler (TypeScript 7, in the root package) publishes no
// such API, so the linter cannot share it (see README, Linting and formatting).
export { default } from 'typescript-eslint'
