long eval(const unsigned char *pc, long *sp);
