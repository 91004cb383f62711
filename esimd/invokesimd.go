package esimd

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sycbuild/sycbuild/llvmir"
)

// InvokeSimdPrefix starts the mangled names of the invoke_simd builtin's
// instantiations (__builtin_invoke_simd, regcall).
const InvokeSimdPrefix = "_Z33__regcall3____builtin_invoke_simd"

// HasInvokeSimd reports whether module m calls the invoke_simd builtin.
func HasInvokeSimd(m *llvmir.Module) bool {
	for _, e := range m.Functions() {
		if strings.HasPrefix(e.Name, InvokeSimdPrefix) {
			return true
		}
	}
	return false
}

// LowerInvokeSimd is the reference's SYCLLowerInvokeSimd on module m: for
// each call
//
//	__builtin_invoke_simd(helper, f, args...)
//
// whose target f is a function, the helper is cloned as helper_<n>
// without its first parameter, calling f directly, marked ESIMD
// (!sycl_explicit_simd, !intel_reqd_sub_group_size 1, weak_odr,
// "VCStackCall"), and the call becomes
//
//	__builtin_invoke_simd_<n>(helper_<n>, args...)
//
// of a new declaration without the target parameter; f is marked
// "__invoke_simd_target". The original helpers and declarations are no
// longer called: a helper nothing else references goes, as the reference
// erases a cloned helper left without uses; the declarations are left to
// the split's cleanup. It returns the new
// module text. A target known only at run time (a function pointer) is
// refused: sycbuild lowers direct targets only.
func LowerInvokeSimd(m *llvmir.Module) ([]byte, error) {
	r := &invokeSimd{m: m, names: map[string]bool{}}
	for _, e := range m.Entities {
		if e.Name != "" && !e.Numbered {
			r.names[e.Name] = true
		}
	}
	for _, f := range m.Functions() {
		if f.Func.Declaration {
			continue
		}
		for i := range f.Func.Calls {
			c := &f.Func.Calls[i]
			if c.Callee == nil || !strings.HasPrefix(c.Callee.Name, InvokeSimdPrefix) {
				continue
			}
			if err := r.call(f, c); err != nil {
				return nil, fmt.Errorf("%s: @%s: invoke_simd: %v", m.File, f.Name, err)
			}
		}
	}
	r.dropUnusedHelpers()
	return r.text(), nil
}

// dropUnusedHelpers removes the definitions of the helpers whose every
// reference was an invoke_simd call now lowered.
func (r *invokeSimd) dropUnusedHelpers() {
	for _, h := range r.m.Functions() {
		n := r.lowered[h]
		if n == 0 {
			continue
		}
		refs := 0
		for _, e := range r.m.Entities {
			if e != h && slices.Contains(e.Globals, h) {
				refs += countRefs(e.Text, "@"+quoteName(h.Name))
			}
		}
		if refs == n {
			r.splice = append(r.splice, splice{h.Off, h.Off + len(h.Text), ""})
		}
	}
}

// countRefs counts the references ref (a global's "@name") in text.
func countRefs(text []byte, ref string) int {
	n := 0
	for s := string(text); ; {
		i := strings.Index(s, ref)
		if i < 0 {
			return n
		}
		s = s[i+len(ref):]
		if s == "" || !isNameChar(s[0]) {
			n++
		}
	}
}

type invokeSimd struct {
	m              *llvmir.Module
	names          map[string]bool // global names taken
	unique         int             // LLVM's counter of a symbol table's unique names
	splice         []splice        // edits of the module source, by position
	added          []string        // entities added at the end
	mdESIMD, mdSG1 string          // the metadata nodes the clones reference
	targets        map[*llvmir.Entity]bool
	lowered        map[*llvmir.Entity]int // each helper's calls lowered
}

type splice struct {
	start, end int
	text       string
}

// uniqueName is the name LLVM gives a new global named base when base is
// taken (base.<n>), with '.' made '_' as the reference's fixFunctionName
// does (IGC does not take '.' in function names).
func (r *invokeSimd) uniqueName(base string) string {
	name := base
	for r.names[name] {
		r.unique++
		name = strings.ReplaceAll(base, ".", "_") + "_" + strconv.Itoa(r.unique)
	}
	r.names[name] = true
	return name
}

func (r *invokeSimd) call(f *llvmir.Entity, c *llvmir.Call) error {
	if len(c.Args) < 2 {
		return fmt.Errorf("@%s is called with %d arguments, want the helper, the target and its arguments", c.Callee.Name, len(c.Args))
	}
	helper, target := c.Args[0].Points, c.Args[1].Points
	if helper == nil || helper.Func == nil || helper.Func.Declaration || strings.TrimSpace(c.Args[0].Value) != "@"+quoteName(helper.Name) {
		return fmt.Errorf("the helper %s is not a function defined in the module", c.Args[0].Value)
	}
	if target == nil || target.Func == nil || strings.TrimSpace(c.Args[1].Value) != "@"+quoteName(target.Name) {
		return fmt.Errorf("the target %s is not a function known at compile time; sycbuild lowers invoke_simd calls of direct targets only", c.Args[1].Value)
	}
	clone, err := r.cloneHelper(helper, target)
	if err != nil {
		return err
	}
	decl, err := r.newDecl(c.Callee)
	if err != nil {
		return err
	}
	// The call: the new declaration, the clone in the helper's place (with
	// the target's parameter attributes, as removeFirstParamAttrAndShrink
	// shifts them), the target gone.
	src := string(r.m.Src[c.Start:c.End])
	at := strings.Index(src, "@"+quoteName(c.Callee.Name)+"(")
	if at < 0 {
		return fmt.Errorf("cannot find the callee in %q", src)
	}
	close := matching(src, at+len(quoteName(c.Callee.Name))+2)
	if close < 0 {
		return fmt.Errorf("unbalanced arguments in %q", src)
	}
	args := []string{argText(c.Args[1].Type, c.Args[1].Attrs, "@"+quoteName(clone))}
	for _, a := range c.Args[2:] {
		args = append(args, argText(a.Type, a.Attrs, a.Value))
	}
	text := src[:at] + "@" + quoteName(decl) + "(" + strings.Join(args, ", ") + src[close:]
	r.splice = append(r.splice, splice{c.Start, c.End, text})
	if r.lowered == nil {
		r.lowered = map[*llvmir.Entity]int{}
	}
	r.lowered[helper]++
	if r.targets == nil {
		r.targets = map[*llvmir.Entity]bool{}
	}
	if !r.targets[target] && !r.m.Attrs(target).Has("__invoke_simd_target") {
		r.targets[target] = true
		at := target.Func.AttrsEnd()
		r.splice = append(r.splice, splice{at, at, ` "__invoke_simd_target"`})
	}
	return nil
}

// cloneHelper adds helper's clone for target and returns its name.
func (r *invokeSimd) cloneHelper(helper, target *llvmir.Entity) (string, error) {
	ps := helper.Func.Params
	if len(ps) == 0 || ps[0].Name == "" || strings.Trim(ps[0].Name, "0123456789") == "" {
		return "", fmt.Errorf("the helper @%s's first parameter (the target) must be named", helper.Name)
	}
	for _, p := range ps {
		if p.Name != "" && strings.Trim(p.Name, "0123456789") == "" {
			return "", fmt.Errorf("the helper @%s has numbered parameters, which removing its first would renumber", helper.Name)
		}
	}
	name := r.uniqueName(helper.Name)
	text := string(helper.Text)
	attrsEnd := helper.Func.AttrsEnd() - helper.Off
	hdr := headerEnd(helper) - helper.Off
	if !r.m.Attrs(helper).Has("VCStackCall") {
		text = text[:attrsEnd] + ` "VCStackCall"` + text[attrsEnd:]
		hdr += len(` "VCStackCall"`)
	}
	header, body := text[:hdr], text[hdr:]
	// Header: the name, the parameters but the first, weak_odr, VCStackCall
	// and the ESIMD metadata.
	at := strings.Index(header, "@"+quoteName(helper.Name)+"(")
	if at < 0 {
		return "", fmt.Errorf("cannot find @%s's parameters", helper.Name)
	}
	open := at + len(quoteName(helper.Name)) + 2
	close := matching(header, open)
	if close < 0 {
		return "", fmt.Errorf("unbalanced parameters of @%s", helper.Name)
	}
	var params []string
	for _, p := range ps[1:] {
		params = append(params, argText(p.Type, p.Attrs, "%"+p.Name))
	}
	header = header[:at] + "@" + quoteName(name) + "(" + strings.Join(params, ", ") + header[close:]
	if l := helper.Func.Linkage; l != llvmir.External {
		header = strings.Replace(header, " "+string(l)+" ", " weak_odr ", 1)
	} else {
		header = strings.Replace(header, "define ", "define weak_odr ", 1)
	}
	header = dropWord(header, "comdat")
	has := func(kind string) bool {
		return slices.ContainsFunc(helper.Func.Attachments, func(a llvmir.Attachment) bool { return a.Kind == kind })
	}
	if !has("sycl_explicit_simd") {
		header += " !sycl_explicit_simd " + r.md(&r.mdESIMD, "!{}")
	}
	if !has("intel_reqd_sub_group_size") {
		header += " !intel_reqd_sub_group_size " + r.md(&r.mdSG1, "!{i32 1}")
	}
	body, calls := callTarget(body, "%"+ps[0].Name, "@"+quoteName(target.Name))
	if calls != 1 {
		return "", fmt.Errorf("the helper @%s calls its target %d times, want once", helper.Name, calls)
	}
	r.added = append(r.added, strings.TrimRight(header, " ")+" "+strings.TrimLeft(body, " "))
	return name, nil
}

// newDecl adds the declaration of the builtin without its target
// parameter and returns its name.
func (r *invokeSimd) newDecl(old *llvmir.Entity) (string, error) {
	ps := old.Func.Params
	if len(ps) < 2 {
		return "", fmt.Errorf("@%s has %d parameters, want at least 2", old.Name, len(ps))
	}
	name := r.uniqueName(old.Name)
	text := string(old.Text)
	at := strings.Index(text, "@"+quoteName(old.Name)+"(")
	if at < 0 {
		return "", fmt.Errorf("cannot find @%s's parameters", old.Name)
	}
	open := at + len(quoteName(old.Name)) + 2
	close := matching(text, open)
	if close < 0 {
		return "", fmt.Errorf("unbalanced parameters of @%s", old.Name)
	}
	params := []string{argText(ps[0].Type, ps[1].Attrs, "")}
	for _, p := range ps[2:] {
		params = append(params, argText(p.Type, p.Attrs, ""))
	}
	r.added = append(r.added, strings.TrimRight(text[:at]+"@"+quoteName(name)+"("+strings.Join(params, ", ")+text[close:], "\n"))
	return name, nil
}

// md returns the metadata node for text: the module's own when it has one
// (LLVM's nodes are uniqued), else one added once (into *slot).
func (r *invokeSimd) md(slot *string, text string) string {
	if *slot == "" {
		for _, e := range r.m.Entities {
			if e.Kind == llvmir.KindMDNode && e.Numbered && strings.TrimSpace(string(e.Text)) == "!"+e.Name+" = "+text {
				*slot = "!" + e.Name
				return *slot
			}
		}
		n := r.m.MaxMDID() + 1
		if r.mdESIMD != "" || r.mdSG1 != "" {
			n++
		}
		*slot = "!" + strconv.Itoa(n)
		r.added = append(r.added, *slot+" = "+text)
	}
	return *slot
}

// text is the module source with the edits made and the new entities at
// its end.
func (r *invokeSimd) text() []byte {
	slices.SortStableFunc(r.splice, func(a, b splice) int { return a.start - b.start })
	src := r.m.Src
	out := make([]byte, 0, len(src)+1024)
	at := 0
	for _, s := range r.splice {
		out = append(out, src[at:s.start]...)
		out = append(out, s.text...)
		at = s.end
	}
	out = append(out, src[at:]...)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	for _, a := range r.added {
		out = append(out, '\n')
		out = append(out, a...)
		out = append(out, '\n')
	}
	return out
}

// headerEnd returns the source offset where a function's header ends: the
// blank before its body's "{", or the end of its declaration's line.
func headerEnd(f *llvmir.Entity) int {
	text := string(f.Text)
	if f.Func.Declaration {
		return f.Off + len(strings.TrimRight(text, "\n "))
	}
	depth, quoted := 0, false
	for i := 0; i < len(text); i++ {
		switch ch := text[i]; {
		case quoted:
			if ch == '"' {
				quoted = false
			}
		case ch == '"':
			quoted = true
		case ch == '(':
			depth++
		case ch == ')':
			depth--
		case ch == '{' && depth == 0:
			return f.Off + len(strings.TrimRight(text[:i], " "))
		}
	}
	return f.Off + len(text)
}

// matching returns the index of the ')' closing the '(' just before
// open, or -1.
func matching(s string, open int) int {
	depth, quoted := 1, false
	for i := open; i < len(s); i++ {
		switch ch := s[i]; {
		case quoted:
			if ch == '"' {
				quoted = false
			}
		case ch == '"':
			quoted = true
		case ch == '(':
			depth++
		case ch == ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// argText writes "T attrs value" (value may be empty).
func argText(t *llvmir.Type, attrs llvmir.Attrs, value string) string {
	parts := []string{t.String()}
	for _, a := range attrs {
		parts = append(parts, a.Text())
	}
	if value != "" {
		parts = append(parts, value)
	}
	return strings.Join(parts, " ")
}

// dropWord removes the first standalone word w from s (with its blank).
func dropWord(s, w string) string {
	for i := 0; ; {
		j := strings.Index(s[i:], " "+w)
		if j < 0 {
			return s
		}
		j += i
		k := j + 1 + len(w)
		if k == len(s) || !isNameChar(s[k]) && s[k] != '(' {
			return s[:j] + s[k:]
		}
		i = k
	}
}

func isNameChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '$' || c == '-'
}

// quoteName writes a global's name as it appears after '@'.
func quoteName(name string) string {
	for i := 0; i < len(name); i++ {
		if !isNameChar(name[i]) {
			return strconv.Quote(name)
		}
	}
	return name
}
