//! No circle of module imports in `codec`, `codec/derive`, `adversarial` or `link`.
//!
//! A module imports another when its source names a path into it: a `use`
//! declaration (`crate::`, `super::`, `self::`, a child module, or a name a
//! `use` bound to a module) or such a path written inline. A module that
//! names its own ancestor is part of it and draws no edge; `#[cfg(test)]
//! mod tests` is a module of its own. Comments and string literals are
//! left out. A circle is a strongly connected set of two modules or more.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

type Module = Vec<String>;

/// The modules of a crate's source, by path, with their text.
fn modules(src: &Path) -> BTreeMap<Module, String> {
    let mut found = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let relative = path.strip_prefix(src).unwrap().with_extension("");
            let mut module: Module = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if module.first().is_some_and(|first| first == "bin") {
                continue;
            }
            if matches!(
                module.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                module.pop();
            }
            let text = strip(&fs::read_to_string(&path).unwrap());
            // A file's test module is a module of its own.
            match text.find("#[cfg(test)]\nmod tests {") {
                Some(at) => {
                    let mut tests = module.clone();
                    tests.push("tests".into());
                    found.insert(tests, text[at..].to_string());
                    found.insert(module, text[..at].to_string());
                }
                None => {
                    found.insert(module, text);
                }
            }
        }
    }
    found
}

/// The text without comments and string literals, lines kept.
fn strip(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            '"' => {
                let mut escaped = false;
                for c in chars.by_ref() {
                    if c == '"' && !escaped {
                        break;
                    }
                    escaped = c == '\\' && !escaped;
                }
                out.push_str("\"\"");
            }
            // A char literal holding a quote (a lifetime is left alone).
            '\'' if chars.peek() == Some(&'"') => {
                chars.next();
                chars.next();
                out.push_str("' '");
            }
            _ => out.push(c),
        }
    }
    out
}

/// `a::{b, c::{d}}` as `a::b`, `a::c::d`.
fn expand(tree: &str) -> Vec<String> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(open) = tree.find('{') else {
        return vec![tree];
    };
    let (prefix, inner) = (&tree[..open], &tree[open + 1..tree.rfind('}').unwrap()]);
    let (mut parts, mut depth, mut current) = (Vec::new(), 0, String::new());
    for c in inner.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
        if c == ',' && depth == 0 {
            parts.push(std::mem::take(&mut current));
        } else {
            current.push(c);
        }
    }
    parts.push(current);
    parts
        .into_iter()
        .filter(|part| !part.is_empty())
        .flat_map(|part| expand(&part))
        .map(|tail| format!("{prefix}{tail}"))
        .collect()
}

/// The paths a `use` declaration names, and the paths written inline.
fn paths(text: &str) -> (Vec<String>, Vec<String>) {
    let mut declared = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("use ") {
        let before = rest[..at].chars().last();
        rest = &rest[at + 4..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(end) = rest.find(';') {
            declared.extend(expand(&rest[..end]).into_iter().map(|path| {
                // `a as b` and `a::*` name `a`.
                let path = path.split(" as ").next().unwrap_or_default().to_string();
                path.trim_end_matches("::*").replace("as", " as ")
            }));
        }
    }
    let mut inline = Vec::new();
    let bytes = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i < bytes.len() {
        let starts = word(bytes[i]) && (i == 0 || !(word(bytes[i - 1]) || bytes[i - 1] == b':'));
        if starts {
            let mut j = i;
            while j < bytes.len()
                && (word(bytes[j]) || (bytes[j] == b':' && bytes.get(j + 1) == Some(&b':')))
            {
                j += if bytes[j] == b':' { 2 } else { 1 };
            }
            let path = &text[i..j];
            if path.contains("::") {
                inline.push(path.trim_end_matches("::").to_string());
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    (declared, inline)
}

/// The module a path names, from inside `from`: its longest prefix that is
/// a module; `None` for another crate's path.
fn resolve(
    path: &str,
    from: &Module,
    all: &BTreeMap<Module, String>,
    aliases: &BTreeMap<String, Module>,
) -> Option<Module> {
    let mut segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let mut base: Module = match *segments.first()? {
        "crate" => {
            segments.remove(0);
            Vec::new()
        }
        "super" | "self" => {
            let mut base = from.clone();
            while let Some(&first) = segments.first() {
                match first {
                    "super" => {
                        base.pop();
                    }
                    "self" => {}
                    _ => break,
                }
                segments.remove(0);
            }
            base
        }
        first => {
            let mut child = from.clone();
            child.push(first.to_string());
            if all.contains_key(&child) {
                from.clone()
            } else {
                let module = aliases.get(first)?.clone();
                segments.remove(0);
                module
            }
        }
    };
    let start = base.len();
    base.extend(segments.iter().map(|s| s.to_string()));
    (start..=base.len())
        .rev()
        .map(|len| base[..len].to_vec())
        .find(|module| all.contains_key(module))
}

/// Every edge between modules of the crate at `src`.
fn graph(src: &Path) -> BTreeMap<Module, BTreeSet<Module>> {
    let all = modules(src);
    let mut edges = BTreeMap::new();
    for (module, text) in &all {
        let (declared, inline) = paths(text);
        let none = BTreeMap::new();
        // Names a `use` binds to a module, for the inline paths through them.
        let aliases: BTreeMap<String, Module> = declared
            .iter()
            .filter_map(|path| {
                let target = resolve(path, module, &all, &none)?;
                let name = path.rsplit(' ').next()?.rsplit("::").next()?.to_string();
                (target.last() == Some(&name)).then_some((name, target))
            })
            .collect();
        let targets: BTreeSet<Module> = declared
            .iter()
            .chain(&inline)
            .filter_map(|path| resolve(path.split(' ').next()?, module, &all, &aliases))
            // A module that names itself or an ancestor is part of it.
            .filter(|target| !module.starts_with(target))
            .collect();
        edges.insert(module.clone(), targets);
    }
    edges
}

/// The circles: strongly connected sets of two modules or more.
fn circles(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct Search<'g> {
        edges: &'g BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'g Module, usize>,
        low: BTreeMap<&'g Module, usize>,
        stack: Vec<&'g Module>,
        found: Vec<Vec<Module>>,
    }
    impl<'g> Search<'g> {
        fn visit(&mut self, v: &'g Module) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            for w in self.edges.get(v).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.stack.contains(&w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut set = Vec::new();
                while let Some(w) = self.stack.pop() {
                    set.push(w.clone());
                    if w == v {
                        break;
                    }
                }
                if set.len() > 1 {
                    set.sort();
                    self.found.push(set);
                }
            }
        }
    }
    let mut search = Search {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !search.index.contains_key(v) {
            search.visit(v);
        }
    }
    search.found
}

fn described(circles: &[Vec<Module>]) -> String {
    circles
        .iter()
        .map(|set| {
            let names: Vec<String> = set
                .iter()
                .map(|m| {
                    if m.is_empty() {
                        "crate".into()
                    } else {
                        m.join("::")
                    }
                })
                .collect();
            names.join(" <-> ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

#[test]
fn no_crate_has_a_circle_of_module_imports() {
    for krate in [
        "codec/src",
        "codec/derive/src",
        "adversarial/src",
        "link/src",
    ] {
        let edges = graph(&workspace().join(krate));
        assert!(
            edges.len() > 5,
            "{krate}: only {} modules found",
            edges.len()
        );
        let found = circles(&edges);
        assert!(
            found.is_empty(),
            "{krate} has circles of imports:\n{}",
            described(&found)
        );
    }
}

/// The checker finds a circle it is shown, through each kind of path: a
/// `use` of a sibling, a grouped `use`, an inline `crate::` path and an
/// inline path through a module a `use` named; and none where a child
/// names its parent, a comment or a string names a module, or a test
/// module imports what imports its file.
#[test]
fn the_checker_finds_circles_and_only_circles() {
    let dir = std::env::temp_dir().join(format!("module-cycles-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    };
    let circle_through = |a: &str, b: &str| {
        write("lib.rs", "mod a;\nmod b;\nmod c;\nmod d;\n");
        write("a.rs", a);
        write("b.rs", b);
        write("c.rs", "pub fn f() {}\n");
        write("d/mod.rs", "mod inner;\nuse super::c;\n");
        write("d/inner.rs", "use super::super::c::f;\nuse crate::d;\n");
        circles(&graph(&dir))
    };
    let sibling = circle_through("use super::b::g;\n", "use crate::a;\n");
    assert_eq!(described(&sibling), "a <-> b");
    let grouped = circle_through(
        "use crate::{c, b::{g, h}};\n",
        "pub fn g() { crate::a::f() }\n",
    );
    assert_eq!(described(&grouped), "a <-> b");
    let aliased = circle_through("use crate::b;\nfn x() { b::g() }\n", "use crate::a::f;\n");
    assert_eq!(described(&aliased), "a <-> b");
    let harmless = circle_through(
        "// use crate::b;\nconst S: &str = \"crate::b::g\";\nuse super::c;\n",
        "use crate::a;\n#[cfg(test)]\nmod tests {\n    use crate::b;\n}\n",
    );
    assert!(harmless.is_empty(), "{}", described(&harmless));
    let test_module = circle_through(
        "use crate::b;\n",
        "pub fn g() {}\n#[cfg(test)]\nmod tests {\n    use crate::a;\n}\n",
    );
    assert!(test_module.is_empty(), "{}", described(&test_module));
    fs::remove_dir_all(&dir).unwrap();
}
