package filetable

import (
	"reflect"
	"strings"
	"testing"
)

func TestReadList(t *testing.T) {
	got, err := ReadList(strings.NewReader("a\r\n\nb c\n\r\n d \nlast"))
	if want := []string{"a", "b c", " d ", "last"}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("got %q %v, want %q", got, err, want)
	}
}
