package postlink

import "testing"

func TestNaming(t *testing.T) {
	cases := []struct {
		outs   []Output
		outDir string
		esimd  bool
		target string
		id     int
		ir     string
		sym    string
		prop   string
	}{
		{outs: []Output{{File: "out.table"}}, id: 0, ir: "out_0.ll", sym: "out_0.sym", prop: "out_0.prop"},
		{outs: []Output{{File: "d/x.files.table"}}, id: 2, ir: "d/x.files_2.ll", sym: "d/x.files_2.sym", prop: "d/x.files_2.prop"},
		{outs: []Output{{File: "/t/a.table"}}, esimd: true, id: 1, ir: "/t/a_1.esimd.ll", sym: "/t/a_1.esimd.sym", prop: "/t/a_1.esimd.prop"},
		{outs: []Output{{File: "/a.table"}}, id: 0, ir: "/a_0.ll", sym: "/a_0.sym", prop: "/a_0.prop"},
		{outs: []Output{{File: "a.table"}}, outDir: "o", id: 3, ir: "o/a_3.ll", sym: "o/a_3.sym", prop: "o/a_3.prop"},
		{outs: []Output{{File: "a.table"}}, outDir: "o/", id: 3, ir: "o/a_3.ll", sym: "o/a_3.sym", prop: "o/a_3.prop"},
		// A target's table gets its own property file; IR and symbols are shared.
		{outs: []Output{{File: "t/a.table"}}, esimd: true, target: "intel_gpu_pvc", id: 4, ir: "t/a_4.esimd.ll", sym: "t/a_4.esimd.sym", prop: "t/a_4.intel_gpu_pvc.prop"},
		// The stem drops only the last extension; a dot file has an empty stem.
		{outs: []Output{{File: "dir/.files"}}, id: 0, ir: "dir/_0.ll", sym: "dir/_0.sym", prop: "dir/_0.prop"},
		{outs: []Output{{File: "noext"}}, id: 5, ir: "noext_5.ll", sym: "noext_5.sym", prop: "noext_5.prop"},
	}
	for _, c := range cases {
		o := Options{Outputs: c.outs, OutDir: c.outDir}
		n := NewNaming(&o)
		if got := n.IR(c.esimd, c.id); got != c.ir {
			t.Errorf("%+v: IR = %q, want %q", c, got, c.ir)
		}
		if got := n.Sym(c.esimd, c.id); got != c.sym {
			t.Errorf("%+v: Sym = %q, want %q", c, got, c.sym)
		}
		if got := n.Prop(c.target, c.esimd, c.id); got != c.prop {
			t.Errorf("%+v: Prop = %q, want %q", c, got, c.prop)
		}
	}
}

func TestParseOutput(t *testing.T) {
	for in, want := range map[string]Output{
		"a.table":                   {File: "a.table"},
		"intel_gpu_pvc,a.table":     {Target: "intel_gpu_pvc", File: "a.table"},
		"t,dir/with,comma.table":    {Target: "t", File: "dir/with,comma.table"},
		"a.table,":                  {File: "a.table"},
		"unrecognized_target,x.tbl": {Target: "unrecognized_target", File: "x.tbl"},
	} {
		if got := ParseOutput(in); got != want {
			t.Errorf("ParseOutput(%q) = %+v, want %+v", in, got, want)
		}
	}
}

func TestTableString(t *testing.T) {
	cases := []struct {
		props, syms bool
		want        string
	}{
		{false, false, "[Code]\na_0.ll\na_1.ll\n"},
		{true, false, "[Code|Properties]\na_0.ll|a_0.prop\na_1.ll|a_1.prop\n"},
		{false, true, "[Code|Symbols]\na_0.ll|a_0.sym\na_1.ll|a_1.sym\n"},
		{true, true, "[Code|Properties|Symbols]\na_0.ll|a_0.prop|a_0.sym\na_1.ll|a_1.prop|a_1.sym\n"},
	}
	for _, c := range cases {
		tb := newTable(Output{File: "a.table"}, c.props, c.syms)
		for _, i := range []string{"0", "1"} {
			tb.Add(Row{Code: "a_" + i + ".ll", Properties: "a_" + i + ".prop", Symbols: "a_" + i + ".sym"})
		}
		if got := tb.String(); got != c.want {
			t.Errorf("props=%v syms=%v: got %q, want %q", c.props, c.syms, got, c.want)
		}
	}
}
