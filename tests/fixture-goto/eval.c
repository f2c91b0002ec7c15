/* eval.c - an interpreter's eval loop as CPython's dispatches: a computed goto at the end of
 * every opcode handler (24 of them), each handler differing from the others, so that a compiler
 * keeps them apart unless it merges the dispatch itself (clang 19). */
#include "eval.h"

long eval(const unsigned char *pc, long *sp)
{
	static void *const handlers[] = {
		&&op0, &&op1, &&op2, &&op3, &&op4, &&op5, &&op6, &&op7,
		&&op8, &&op9, &&op10, &&op11, &&op12, &&op13, &&op14, &&op15,
		&&op16, &&op17, &&op18, &&op19, &&op20, &&op21, &&op22, &&op23,
		&&done
	};
	long acc = 0;
#define NEXT goto *handlers[*pc++]
	NEXT;
done:
	return acc;
op0:	acc = (acc + sp[0]) + 1; NEXT;
op1:	acc = (acc - sp[1]) + 2; NEXT;
op2:	acc = (acc * sp[2]) + 3; NEXT;
op3:	acc = (acc ^ sp[3]) + 4; NEXT;
op4:	acc = (acc | sp[0]) + 5; NEXT;
op5:	acc = (acc & sp[1]) + 6; NEXT;
op6:	acc = (acc + sp[2]) + 7; NEXT;
op7:	acc = (acc - sp[3]) + 8; NEXT;
op8:	acc = (acc * sp[0]) + 9; NEXT;
op9:	acc = (acc ^ sp[1]) + 10; NEXT;
op10:	acc = (acc | sp[2]) + 11; NEXT;
op11:	acc = (acc & sp[3]) + 12; NEXT;
op12:	acc = (acc + sp[0]) + 13; NEXT;
op13:	acc = (acc - sp[1]) + 14; NEXT;
op14:	acc = (acc * sp[2]) + 15; NEXT;
op15:	acc = (acc ^ sp[3]) + 16; NEXT;
op16:	acc = (acc | sp[0]) + 17; NEXT;
op17:	acc = (acc & sp[1]) + 18; NEXT;
op18:	acc = (acc + sp[2]) + 19; NEXT;
op19:	acc = (acc - sp[3]) + 20; NEXT;
op20:	acc = (acc * sp[0]) + 21; NEXT;
op21:	acc = (acc ^ sp[1]) + 22; NEXT;
op22:	acc = (acc | sp[2]) + 23; NEXT;
op23:	acc = (acc & sp[3]) + 24; NEXT;
}
