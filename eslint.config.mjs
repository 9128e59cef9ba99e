// Lint for what a reviewer cannot see at a glance: import cycles, unused code, unsafe TypeScript.
import importX from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", ".data/", ".tools/", "coverage/", "test/replay/histories/"] },
  ...tseslint.configs.recommended,
  {
    plugins: { "import-x": importX },
    settings: {
      "import-x/resolver-next": [createTypeScriptImportResolver()],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts"] },
    },
    rules: {
      // Type-only imports count: a cycle of types still ties two modules' designs together.
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  {
    // Tests read JSON response bodies, whose shape is what they assert.
    files: ["test/**/*.ts", "bench/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
