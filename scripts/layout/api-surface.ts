// The public surface of a declaration: what its declaration file (.d.ts) would show. A type named there (an
// options interface of an exported function, a result type, a base class) is part of that export's API: a user
// of the export needs to name it, so the unused-exports check counts it as used whenever the export is.
import ts from "typescript";

function isPrivate(node: ts.Node): boolean {
  if (!ts.canHaveModifiers(node)) return false;
  const name = (node as { name?: ts.Node }).name;
  if (name && ts.isPrivateIdentifier(name)) return true;
  return (ts.getCombinedModifierFlags(node as ts.Declaration) & ts.ModifierFlags.Private) !== 0;
}

/**
 * The identifiers in type positions of a declaration's surface: parameter and return types, type parameters,
 * heritage clauses, property and member types, `typeof x` queries. Function bodies, private members and the
 * initializers of annotated variables, properties and parameters are not part of it.
 */
export function surfaceTypeNames(declaration: ts.Node): ts.Identifier[] {
  const found: ts.Identifier[] = [];
  const visit = (node: ts.Node, inType: boolean): void => {
    if (isPrivate(node)) return;
    if (ts.isBlock(node) && node.parent && ts.isFunctionLike(node.parent)) return;
    if (ts.isArrowFunction(node) && !ts.isBlock(node.body)) {
      // An expression body is the implementation; its type shows only when no return type is written.
      node.typeParameters?.forEach((t) => visit(t, inType));
      node.parameters.forEach((p) => visit(p, inType));
      if (node.type) visit(node.type, true);
      return;
    }
    if ((ts.isVariableDeclaration(node) || ts.isPropertyDeclaration(node) || ts.isParameter(node)) && node.type) {
      visit(node.type, true);
      return;
    }
    const typed = inType || ts.isTypeNode(node);
    if (typed && ts.isIdentifier(node)) found.push(node);
    ts.forEachChild(node, (child) => visit(child, typed));
  };
  visit(declaration, false);
  return found;
}
