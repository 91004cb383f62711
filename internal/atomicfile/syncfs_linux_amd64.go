package atomicfile

const sysSyncfs = 306 // syscall lacks SYS_SYNCFS on amd64
