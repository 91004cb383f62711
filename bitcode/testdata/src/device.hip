#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
extern "C" __device__ int __nvvm_read_ptx_sreg_tid_x();
__device__ float sq(float x) { return x * x; }
__global__ void kern(float* out, const float* in, int n) { __shared__ float s[32]; int i = __builtin_amdgcn_workitem_id_x(); s[i & 31] = in[i]; __builtin_amdgcn_s_barrier(); if (i < n) out[i] = sq(s[i & 31]); }
