#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
struct node { struct node* next; int val; char name[16]; union { int i; float f; } u; unsigned bits : 3; };
static struct node* mk(int v) { struct node* n = calloc(1, sizeof *n); n->val = v; snprintf(n->name, sizeof n->name, "n%d", v); n->bits = v & 7; return n; }
int walk(struct node* n) { int s = 0; for (; n; n = n->next) s += n->val * n->bits; return s; }
double m(double x) { return sqrt(x) + sin(x) * cos(x) + fabs(x); }
int vla(int n) { int a[n]; for (int i = 0; i < n; i++) a[i] = i * i; return a[n/2]; }
const char* table[] = {"zero", "one", "two", NULL};
int main(int argc, char** argv) { struct node* h = 0; for (int i = 0; i < argc * 10; i++) { struct node* n = mk(i); n->next = h; h = n; } printf("%d %f %s %d\n", walk(h), m(argc), table[argc % 3], vla(argc + 3)); memset(h, 0, 4); return 0; }
