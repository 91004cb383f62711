package props

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// Registry.SpecConsts reads back the sets addSpecConsts writes, through the
// .prop text; a value that is no list of descriptors is an error.
func TestSpecConstsRoundTrip(t *testing.T) {
	scs := []SpecConst{
		{SymID: "uid_a", Descs: []SpecConstDesc{{ID: 0, Offset: 0, Size: 4}}},
		{SymID: "uid_b", Descs: []SpecConstDesc{{ID: 1, Offset: 0, Size: 4}, {ID: 4294967295, Offset: 4, Size: 4}}},
	}
	defaults := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	var r Registry
	addSpecConsts(&r, scs, defaults)
	var b bytes.Buffer
	if err := r.Write(&b); err != nil {
		t.Fatal(err)
	}
	back, err := Read("x.prop", &b)
	if err != nil {
		t.Fatal(err)
	}
	gotSCs, gotDefaults, err := back.SpecConsts()
	if err != nil || !reflect.DeepEqual(gotSCs, scs) || !bytes.Equal(gotDefaults, defaults) {
		t.Errorf("got %+v %v %v, want %+v %v", gotSCs, gotDefaults, err, scs, defaults)
	}

	bad, err := Read("y.prop", strings.NewReader("[SYCL/specialization constants]\nuid=1|5\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := bad.SpecConsts(); err == nil || !strings.Contains(err.Error(), "uid is not a list of") {
		t.Errorf("a uint32 value: %v", err)
	}
}
