# rules: SPL101, SPL102, SPL103, SPL104
"""Look-alikes: XML elements, AST nodes and LibCST nodes have `.text`, `.value` and `.body` too."""
import ast
import xml.etree.ElementTree as ET


def normalize_xml(root: ET.Element) -> None:
    for node in root.iter():
        if node.text:
            node.text = node.text.strip()


class ConstantFolder(ast.NodeTransformer):
    def visit_Constant(self, node: ast.Constant) -> ast.Constant:
        if isinstance(node.value, str):
            node.value = node.value.lower()
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        node.body = [stmt for stmt in node.body if not isinstance(stmt, ast.Pass)] or node.body
        return node


def rename_entries(tree):
    for entry in ast.walk(tree):
        if isinstance(entry, ast.Name):
            entry.id = entry.id.upper()
