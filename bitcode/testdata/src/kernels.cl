kernel void k(global float* a, global const float* b, local float* l, int n) { int i = get_global_id(0); l[get_local_id(0)] = b[i]; barrier(CLK_LOCAL_MEM_FENCE); if (i < n) a[i] = l[get_local_id(0)] * 2.0f + native_sin(b[i]); atomic_add((global int*)a, 1); }
kernel void k2(global int4* v) { v[get_global_id(0)] = v[0].wzyx + (int4)(1,2,3,4); }
