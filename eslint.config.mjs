// @ts-check
// The linter (`npm run lint`, run by .ci/run): ESLint's and typescript-eslint's recommended rules, no formatting
// rules. Every disable comment says why on the same line (`-- reason`), and none outlives its need (an unused one is
// an error).
import js from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import comments from "@eslint-community/eslint-plugin-eslint-comments/configs";
import globals from "globals";
import tseslint from "typescript-eslint";

export default defineConfig(
  globalIgnores(["**/node_modules/**", "**/dist/**", "**/cdktf.out/**", "**/.build/**", ".gen/**", "docs/api/**", "coverage/**", "tmp/**"]),
  { linterOptions: { reportUnusedDisableDirectives: "error" } },
  js.configs.recommended,
  tseslint.configs.recommended,
  comments.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@eslint-community/eslint-comments/require-description": ["error", { ignore: ["eslint-enable"] }],
      "@eslint-community/eslint-comments/disable-enable-pair": ["error", { allowWholeFile: true }],
      // A leading underscore marks what is left out on purpose: a parameter a signature requires, a property
      // destructured away (`{ secret: _secret, ...rest }`).
      "@typescript-eslint/no-unused-vars": ["error", {
        argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", ignoreRestSiblings: true,
      }],
      // The project matches control characters on purpose: SQS's character set, DynamoDB's, terminal output.
      "no-control-regex": "off",
    },
  },
  {
    // CommonJS files (launchers, jest configs, the dynalite patches shared with worker threads) load with require.
    files: ["**/*.js", "**/*.cjs"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // Type-aware, and only two promise rules: a promise nobody awaits loses its error (an unhandled rejection, or a
    // check that never ran). Measured (TIMING=1): these two cost ~6 s and the type program ~10 s; no-misused-promises
    // alone cost ~12 s more and is left out, as is the rest of the type-aware set.
    files: ["**/*.ts"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/no-floating-promises": "error",
    },
  },
  {
    // Tests read synthesized JSON, definitions and SDK answers of no declared type.
    files: ["**/test/**/*.ts", "**/*.test.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
