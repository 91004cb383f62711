// Package llvmir is a fast, faithful in-process model of textual LLVM IR.
//
// A Module is the ordered list of the file's top-level entities (header
// lines, named types, comdats, global variables, aliases and ifuncs,
// functions, attribute groups, named and numbered metadata, use-list orders),
// each holding its exact source bytes: reading is one pass and zero-copy over
// the file, and an untouched entity is written back byte for byte.
//
// What is parsed structurally: every type, the data layout, constants
// (including constant expressions and c"…" strings, on demand), function and
// global headers, attribute groups and metadata nodes. Function bodies are
// scanned, not parsed: every reference to a global (@x) or to numbered
// metadata (!N) is recorded, and every call (call, invoke, callbr) with its
// callee, or, for an indirect call, its function type.
//
// Both LLVM 15-era IR (typed pointers such as i8 addrspace(4)*) and current
// IR (ptr addrspace(4), memory(…)) are accepted and passed through
// unchanged. Metadata used as a value is parsed in every form (metadata
// i32 0, metadata ptr %x, metadata !DIArgList(…), debug records), and the
// globals and nodes it names are references like any others. Types,
// constants and metadata nested deeper than MaxNesting levels are refused
// with a positioned error, so that no input exhausts the stack.
//
// What a kernel is is defined here once (kernel.go): a function of a
// kernel calling convention, or one that !nvvm.annotations lists as a
// kernel. The same rules read single lines for pre-scans that must not
// parse the whole module (ScanDefineHead, IsKernelAnnotationLine).
//
// Writing goes through a Plan: a chosen subset of the entities plus local
// edits (linkage changes, definitions turned into declarations, added
// function attributes, an instruction replaced by several, new declarations,
// metadata and attribute groups). Unnamed globals (@0, @1, …) are renumbered
// densely in every output and all references follow. Numbered local values
// (%5) keep their numbers under Plan.ReplaceInstr, so its replacements must
// keep them too. A pass that adds or removes unnamed values (as LLVM's
// passes do, after which LLVM's writer numbers the function afresh) edits
// the body through a BodyEdit instead: it replaces and removes
// instructions, replaces the uses of a removed value, hands out new names
// and placeholders for new unnamed values, and Plan.SetBody writes the
// function with its unnamed values renumbered densely in order of
// definition, as LLVM prints them. That renumbering is an operation of
// this package, on one function body, and the only one.
//
// Module.AssembleBitcode (bcw*.go) writes the module's text as LLVM
// bitcode, the bitcode llvm-as of the module's LLVM generation (14, 15,
// 19, 22, …) makes of it: typed pointers for typed text read by LLVM 16
// or older, opaque ones otherwise. It parses what the model leaves as
// text (function bodies, constants, metadata and debug-info fields) with
// this package's lexer and type parser. Use-list orders are left out
// (they change no instruction's meaning; llvm-dis does not print them).
// A construct it does not know (module summary entries, which llvm-as
// writes as a summary block) is an error at its file:line:col, never
// other bitcode. Modules written with one BodyCache (the modules of a
// split) parse a function body they share once: the others ask their own
// tables the body's questions again, in the same order, and write its
// kept records, which gives the same bytes as parsing it (bcw_bodies.go).
//
// Positions are byte offsets into the source; file:line:col is computed only
// for messages. The module's source must not be modified while the Module is
// in use: names and texts share its memory.
package llvmir
