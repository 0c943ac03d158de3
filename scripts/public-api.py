#!/usr/bin/env python3
"""A crate's public API as lines of text, from rustdoc's JSON.

Reads the JSON rustdoc writes (`--output-format json`) and prints one line
per public item reachable from the crate's root: functions with their
signatures, types, fields, variants, constants, inherent methods, and the
traits each public type implements (auto traits included: a type that
stops being `Send` breaks its users). Used by scripts/check-public-api.
"""

import json
import sys


def main(path):
    doc = json.load(open(path))
    index = doc["index"]
    out = set()
    seen = set()

    def item(id_):
        return index.get(str(id_))

    def path_name(p):
        return p.get("path") or p.get("name") or "?"

    def ty(t):
        if t is None:
            return "()"
        (kind, v), = t.items()
        if kind == "resolved_path":
            name = path_name(v).split("::")[-1]
            return name + args(v.get("args"))
        if kind == "primitive":
            return v
        if kind == "generic":
            return v
        if kind == "borrowed_ref":
            life = (v.get("lifetime") or "") + " " if v.get("lifetime") else ""
            mut = "mut " if v.get("is_mutable") else ""
            return f"&{life}{mut}{ty(v['type'])}"
        if kind == "slice":
            return f"[{ty(v)}]"
        if kind == "array":
            return f"[{ty(v['type'])}; {v['len']}]"
        if kind == "tuple":
            return "(" + ", ".join(ty(x) for x in v) + ")"
        if kind == "impl_trait":
            return "impl " + " + ".join(bound(b) for b in v)
        if kind == "dyn_trait":
            return "dyn " + " + ".join(path_name(p["trait"]) + args(p["trait"].get("args")) for p in v["traits"])
        if kind == "raw_pointer":
            return ("*mut " if v.get("is_mutable") else "*const ") + ty(v["type"])
        if kind == "qualified_path":
            return f"<{ty(v['self_type'])}>::{v['name']}"
        return kind

    def args(a):
        if not a:
            return ""
        if "angle_bracketed" in a:
            parts = []
            for g in a["angle_bracketed"].get("args", []):
                if "type" in g:
                    parts.append(ty(g["type"]))
                elif "lifetime" in g:
                    parts.append(g["lifetime"])
                elif "const" in g:
                    parts.append(str(g["const"].get("expr")))
            for c in a["angle_bracketed"].get("constraints", []):
                binding = c.get("binding", {})
                if "equality" in binding:
                    eq = binding["equality"]
                    parts.append(f"{c['name']} = {ty(eq['type']) if 'type' in eq else eq}")
            return "<" + ", ".join(parts) + ">" if parts else ""
        if "parenthesized" in a:
            p = a["parenthesized"]
            return "(" + ", ".join(ty(x) for x in p.get("inputs", [])) + ")" + (" -> " + ty(p["output"]) if p.get("output") else "")
        return ""

    def bound(b):
        if "trait_bound" in b:
            t = b["trait_bound"]["trait"]
            return path_name(t).split("::")[-1] + args(t.get("args"))
        if "outlives" in b:
            return b["outlives"]
        return "?"

    def sig(f):
        s = f["sig"]
        inputs = ", ".join(f"{n}: {ty(t)}" if n != "self" else ty(t) for n, t in s["inputs"])
        output = f" -> {ty(s['output'])}" if s.get("output") else ""
        return f"({inputs}){output}"

    def attrs(it):
        return " #[non_exhaustive]" if any("non_exhaustive" in str(a) for a in it.get("attrs", [])) else ""

    def walk(id_, prefix, name=None):
        it = item(id_)
        if it is None or it.get("visibility") != "public":
            return
        (kind, inner), = it["inner"].items()
        name = name or it.get("name")
        here = f"{prefix}::{name}" if prefix else name
        if kind == "use":
            if inner.get("id") is not None:
                walk(inner["id"], prefix, inner.get("name"))
            return
        if (id_, here) in seen:
            return
        seen.add((id_, here))
        if kind == "module":
            if prefix:
                out.add(f"mod {here}")
            for child in inner["items"]:
                walk(child, here)
        elif kind == "function":
            out.add(f"fn {here}{sig(inner)}")
        elif kind == "constant":
            out.add(f"const {here}: {ty(inner['type'])}")
        elif kind == "static":
            out.add(f"static {here}: {ty(inner['type'])}")
        elif kind == "type_alias":
            out.add(f"type {here} = {ty(inner['type'])}")
        elif kind in ("struct", "enum", "union"):
            out.add(f"{kind} {here}{attrs(it)}")
            if kind == "struct":
                k = inner["kind"]
                fields = k.get("plain", {}).get("fields", []) if isinstance(k, dict) else []
                if isinstance(k, dict) and "tuple" in k:
                    fields = [f for f in k["tuple"] if f is not None]
                for f in fields:
                    fi = item(f)
                    if fi and fi.get("visibility") == "public":
                        out.add(f"field {here}::{fi['name']}: {ty(fi['inner']['struct_field'])}")
            if kind == "enum":
                for v in inner["variants"]:
                    vi = item(v)
                    out.add(f"variant {here}::{vi['name']}{attrs(vi)}")
            for imp in inner.get("impls", []):
                ii = item(imp)
                if ii is None:
                    continue
                i = ii["inner"]["impl"]
                if i.get("blanket_impl") is not None:
                    continue
                if i.get("trait") is not None:
                    if path_name(i["trait"]).split("::")[-1] == "Freeze":
                        continue
                    neg = "!" if i.get("is_negative") else ""
                    out.add(f"impl {here}: {neg}{path_name(i['trait']).split('::')[-1]}{args(i['trait'].get('args'))}")
                    continue
                for m in i["items"]:
                    mi = item(m)
                    if mi and mi.get("visibility") == "public":
                        (mk, minner), = mi["inner"].items()
                        if mk == "function":
                            out.add(f"method {here}::{mi['name']}{sig(minner)}")
                        elif mk == "constant":
                            out.add(f"const {here}::{mi['name']}: {ty(minner['type'])}")
        elif kind == "trait":
            out.add(f"trait {here}")
        elif kind == "macro":
            out.add(f"macro {here}")

    walk(doc["root"], "", None)
    for line in sorted(out):
        print(line)


if __name__ == "__main__":
    main(sys.argv[1])
