# Tests of the NSGS part of newton/ (fcsn_nsgs): Delassus data, one-contact solvers, NSGS sweeps.
fcsn_test(delassus_test SOURCES delassus_test.cc LIBS fcsn_nsgs LABELS newton)
fcsn_test(nsgs_local_solvers_test SOURCES nsgs_local_solvers_test.cc LIBS fcsn_nsgs LABELS newton)
fcsn_test(nsgs_test SOURCES nsgs_test.cc LIBS fcsn_nsgs nlohmann_json::nlohmann_json LABELS newton)
fcsn_test(nsgs_no_allocation_test SOURCES nsgs_no_allocation_test.cc LIBS fcsn_nsgs fcsn_alloc_counter LABELS newton)
fcsn_test(projected_jacobi_test SOURCES projected_jacobi_test.cc LIBS fcsn_nsgs LABELS newton)
fcsn_test(fp_vi_upk_test SOURCES fp_vi_upk_test.cc LIBS fcsn_nsgs LABELS newton)
