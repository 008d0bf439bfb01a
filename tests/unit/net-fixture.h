/* net-fixture.h - a hand network for the unit tests of the MPI network
 * and of the equations' network terms (test_net.c, test_eq_net.c).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_TEST_NET_FIXTURE_H
#define PERFPRED_TEST_NET_FIXTURE_H

#include "net.h"

/* LogGP figures by hand (ns, ns per byte), every algorithm AUTO */
static inline pp_net net_of(double L, double o, double g, double G, double gamma, double eager)
{
    pp_net n;
    pp_net_pram(&n);
    n.L = L;
    n.o = o;
    n.g = g;
    n.G = G;
    n.gamma = gamma;
    n.eager_bytes = eager;
    n.source = 0;
    return n;
}

#endif
