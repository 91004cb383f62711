//go:build linux && (amd64 || arm64)

package atomicfile

import "syscall"

const haveSyncFS = true

// syncFS flushes the file system holding fd (syncfs(2)).
func syncFS(fd int) error {
	if _, _, e := syscall.Syscall(sysSyncfs, uintptr(fd), 0, 0); e != 0 {
		return e
	}
	return nil
}
