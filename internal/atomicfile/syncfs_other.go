//go:build !linux || !(amd64 || arm64)

package atomicfile

const haveSyncFS = false

func syncFS(fd int) error { panic("atomicfile: no syncfs") }
