// Lint for what a reviewer cannot see at a glance: import cycles, unused code, unsafe TypeScript.
import importPlugin from "eslint-plugin-import";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", ".data/", ".tools/", "coverage/", "test/replay/histories/"] },
  ...tseslint.configs.recommended,
  {
    plugins: { import: importPlugin },
    settings: {
      "import/parsers": { "@typescript-eslint/parser": [".ts"] },
      "import/resolver": { node: { extensions: [".ts", ".js", ".json"] } },
    },
    rules: {
      // Type-only imports count: a cycle of types still ties two modules' designs together.
      "import/no-cycle": ["error", { ignoreExternal: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  {
    // A column as a class field (`name!: string`) would make every instance define it as undefined
    // before objection sets it, a cost every row read paid (BaseModel.fromDatabaseJson).
    files: ["src/models/**/*.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "ClassBody > PropertyDefinition[static=false][declare=false][value=null]",
          message: "Declare a model's columns with `declare`, not as class fields.",
        },
      ],
    },
  },
  {
    // Tests read JSON response bodies, whose shape is what they assert.
    files: ["test/**/*.ts", "bench/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
