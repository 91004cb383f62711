package conformance

import (
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }
