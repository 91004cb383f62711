struct S { int a; double b; char c[3]; };
struct S gs = {1, 2.5, "hi"};
static int counter;
int f(int x, struct S *s) { for (int i=0;i<x;i++) counter += s->a * i; return counter > 3 ? x : -x; }
float g(float a, float b) { return a*b+1.1f; }
