package atomicfile

import "syscall"

const sysSyncfs = syscall.SYS_SYNCFS
