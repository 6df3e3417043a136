"""The strict reading shared by the user's YAML files (a league configuration, a rules file): the parsed node
tree is checked before any value is built, and a value is shown in errors as YAML writes it.

PyYAML's safe loading keeps the last of two equal keys, leaves tags it has no constructor for to fail deep in
its internals, and lets a NUL through to whatever is given it; each of those is one plain problem here, with
the node and the key it is under.
"""

from __future__ import annotations

import yaml

_CORE = "tag:yaml.org,2002:"
# The tags safe loading builds values for, and the merge key (``<<``), which it reads as part of a mapping.
ALLOWED_TAGS = frozenset(tag for tag in yaml.SafeLoader.yaml_constructors if tag) | {_CORE + "merge"}


def short_tag(tag: str) -> str:
    """``tag`` as it is written in a file: ``!!python/name:os.system``, ``!custom``."""
    if tag.startswith(_CORE):
        return "!!" + tag.removeprefix(_CORE)
    return tag if tag.startswith("!") else f"!<{tag}>"


def unbuildable(root: yaml.Node, key: str = "") -> tuple[yaml.Node, str, str] | None:
    """The first node under ``root`` (in the order of the file) that no value may be built from, with the key
    it is under and why: a key given twice in one mapping, a tag safe loading does not know, a NUL character
    (which no command word, path or environment variable can hold). None when there is none. ``key``: the
    key the root is under (none for a whole file)."""
    seen: set[int] = set()  # an alias is checked once, where its anchor is: no blow-up of a shared node

    def walk(node: yaml.Node, key: str) -> tuple[yaml.Node, str, str] | None:
        if id(node) in seen:
            return None
        seen.add(id(node))
        if node.tag not in ALLOWED_TAGS:
            return node, key, f"the tag {short_tag(node.tag)} is not allowed: write the value without it"
        if isinstance(node, yaml.ScalarNode):
            if "\0" in node.value:
                return node, key, "contains a NUL character (\\0), which no command, path or variable can hold"
            return None
        if isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                found = walk(item, f"{key}[{index}]")
                if found is not None:
                    return found
            return None
        names: set[tuple[str, str]] = set()
        for key_node, value_node in node.value:
            name = key_node.value if isinstance(key_node, yaml.ScalarNode) else "?"
            path = f"{key}.{name}" if key else str(name)
            found = walk(key_node, path)
            if found is not None:
                return found
            if isinstance(key_node, yaml.ScalarNode) and key_node.tag != _CORE + "merge":
                if (key_node.tag, name) in names:
                    return key_node, path, "given twice"
                names.add((key_node.tag, name))
            found = walk(value_node, path)
            if found is not None:
                return found
        return None

    return walk(root, key)


def shown(node: yaml.Node | None, most: int = 60) -> str:
    """The value at ``node`` as YAML writes it on one line (a text alone in quotes, so that it reads as one), cut
    to about ``most`` characters: what the user wrote, never a Python repr."""
    if node is None:
        return "nothing"
    if isinstance(node, yaml.ScalarNode) and node.style is None and node.tag != _CORE + "str":
        # Plain, as written; with its tag when the tag was written (the emitter would quote it).
        resolved = yaml.SafeLoader("").resolve(yaml.ScalarNode, node.value, (True, False))  # type: ignore[no-untyped-call]
        implicit = resolved == node.tag
        text = node.value or ("null" if node.tag == _CORE + "null" else "''")
        text = text if implicit else f"{short_tag(node.tag)} {text}"
        return text if len(text) < most else text[: most - 3] + "..."
    copies: dict[int, yaml.Node] = {}

    def flow(node: yaml.Node, top: bool = False) -> yaml.Node:
        if id(node) in copies:  # shared (an alias): copied once, so the copy is written with an anchor
            return copies[id(node)]
        if isinstance(node, yaml.ScalarNode):
            quoted = top and node.tag == _CORE + "str" and node.style in (None, "|", ">")
            value = node.value or ("null" if node.tag == _CORE + "null" else "")  # written as nothing at all
            copy: yaml.Node = yaml.ScalarNode(node.tag, value, style="'" if quoted else node.style)
        elif isinstance(node, yaml.SequenceNode):
            copy = yaml.SequenceNode(node.tag, [], flow_style=True)
            copies[id(node)] = copy
            copy.value = [flow(item) for item in node.value]
        else:
            copy = yaml.MappingNode(node.tag, [], flow_style=True)
            copies[id(node)] = copy
            copy.value = [(flow(key), flow(value)) for key, value in node.value]
        copies[id(node)] = copy
        return copy

    try:
        text = yaml.serialize(flow(node, top=True), Dumper=yaml.SafeDumper, width=1 << 30, allow_unicode=True)
    except (yaml.YAMLError, RecursionError):
        text = str(getattr(node, "value", "?")) if isinstance(node, yaml.ScalarNode) else "?"
    text = one_line(text.removesuffix("\n...\n"))
    return text if len(text) < most else text[: most - 3] + "..."


def one_line(text: object) -> str:
    """``text`` on one line: PyYAML's messages and the names of keys may hold line breaks."""
    return " ".join(str(text).split())


def value_under(node: yaml.Node, key: str) -> yaml.Node:
    """The value node of ``key`` in the mapping ``node`` when it is written there (for its line), else ``node``."""
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.value == key:
                return value_node  # type: ignore[no-any-return]
    return node
