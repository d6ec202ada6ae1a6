/*
 * test_coinfolio.c — the C test suite of Coinfolio: the C ABI of include/coinfolio.h exercised
 * from C, every JSON output parsed with jansson.
 *
 *     build/test_coinfolio <repository root> [test name substring…]
 *
 * cmocka runs the tests below (those whose name contains one of the substrings, when given) and
 * prints its standard summary. CMOCKA_MESSAGE_OUTPUT=tap (or subunit, xml)
 * picks cmocka's other output formats. Needs python3 for the loopback CoinGecko server
 * (Tests/server/coingecko_server.py). The corpus tests read ../shared/fixtures/coingecko beside
 * the repository when it exists, and are skipped otherwise.
 *
 * A new test: `void test_xxx(void)` in a test_*.c file, declared in tests.h, and one line
 * `TEST(test_xxx),` below.
 */
#include <setjmp.h> /* cmocka.h needs these four first */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_support.h"
#include "tests.h"

static const struct CMUnitTest tests[] = {
    /* test_format.c */
    TEST(test_library_version),
    TEST(test_string_free_and_close_accept_null),
    TEST(test_format_currency_two_decimals),
    TEST(test_format_currency_two_to_six_decimals),
    TEST(test_format_currency_symbols),
    TEST(test_format_price),
    TEST(test_format_number_and_percent),
    TEST(test_format_abbreviated),
    TEST(test_format_non_finite_is_na),
    TEST(test_format_negative_zero_prints_zero),
    TEST(test_format_invalid_arguments_return_null),
    /* test_decode.c */
    TEST(test_decode_markets_fixture_matches_raw_values),
    TEST(test_decode_markets_keeps_unknown_price_as_null),
    TEST(test_decode_markets_tiny_and_huge_numbers),
    TEST(test_decode_markets_sparklines_of_any_length),
    TEST(test_decode_markets_duplicate_symbols_are_distinct_coins),
    TEST(test_decode_markets_skips_bad_elements),
    TEST(test_decode_global_fixture),
    TEST(test_decode_detail_fixture_plain_text),
    TEST(test_corpus_markets_decode_and_match),
    TEST(test_corpus_global_decode_and_match),
    TEST(test_corpus_coin_detail_decode_and_match),
    /* test_bad_input.c */
    TEST(test_decode_rejects_null_and_malformed_input),
    TEST(test_decode_rejects_wrong_shapes),
    TEST(test_decode_survives_deep_nesting),
    TEST(test_decode_huge_markets_body),
    TEST(test_decode_lone_surrogate_is_clean),
    TEST(test_store_rejects_null_arguments),
    TEST(test_client_rejects_bad_arguments),
    TEST(test_engine_open_rejects_bad_config),
    TEST(test_engine_rejects_null_arguments),
    TEST(test_engine_bad_input_changes_nothing),
    /* test_store.c */
    TEST(test_store_insert_update_delete),
    TEST(test_store_zero_or_negative_amount_never_inserts),
    TEST(test_store_rejects_bad_amounts_and_ids_writing_nothing),
    TEST(test_store_sql_looking_ids_are_stored_literally),
    TEST(test_store_amounts_round_trip_exactly),
    TEST(test_store_persists_across_close_and_reopen),
    TEST(test_store_holdings_sorted_by_coin_id),
    TEST(test_store_directory_path_is_store_error),
    TEST(test_store_file_that_is_not_a_database_is_store_error),
    TEST(test_store_memory_database),
    /* test_client.c */
    TEST(test_client_markets_default_query),
    TEST(test_client_markets_ids_and_options),
    TEST(test_client_plan_keys_go_in_their_headers),
    TEST(test_client_retries_429_after_retry_after),
    TEST(test_client_long_retry_after_is_rate_limited_at_once),
    TEST(test_client_503_html_retries_then_http_error),
    TEST(test_client_server_error_then_success_is_retried),
    TEST(test_client_client_error_is_not_retried),
    TEST(test_client_slow_body_past_timeout_is_network_error),
    TEST(test_client_connection_refused_is_network_error),
    TEST(test_client_connection_closed_without_answer_is_network_error),
    TEST(test_client_truncated_or_html_body_is_classified),
    TEST(test_client_unauthorized_never_shows_the_key),
    TEST(test_client_coin_detail_query_and_path_encoding),
    /* test_charts.c */
    TEST(test_decode_market_chart_keeps_null_points_as_gaps),
    TEST(test_client_market_chart_query_and_plan_limit),
    TEST(test_client_market_chart_range_hourly_points_and_query),
    TEST(test_client_market_chart_range_plan_limit_and_unknown_coin),
    TEST(test_client_market_chart_range_five_minute_points_and_a_tiny_price),
    TEST(test_client_market_chart_range_refuses_bad_input_unsent),
    TEST(test_engine_price_at_lookup_order),
    TEST(test_engine_price_at_snapshot_within_the_hour),
    TEST(test_engine_price_at_no_data_reasons),
    TEST(test_engine_price_bad_input_changes_nothing),
    TEST(test_engine_manual_current_price_values_a_coin_the_snapshot_lacks),
    TEST(test_engine_pnl_uses_a_manual_current_price),
    TEST(test_engine_fill_prices_300_rows_3_coins_200_days_3_requests),
    TEST(test_engine_fill_prices_429_retry_after_119_stops_and_the_next_sends_nothing),
    TEST(test_engine_fill_prices_converts_a_buy_in_euros),
    TEST(test_engine_pending_price_pnl_is_unknown_with_its_coverage),
    TEST(test_engine_performance_reads_filled_and_manual_points),
    TEST(test_engine_performance_ends_at_the_manual_current_price),
    TEST(test_client_simple_price_splits_and_reads_empty_objects),
    TEST(test_engine_chart_summary_and_clamp),
    TEST(test_engine_chart_empty_series_has_null_summary),
    TEST(test_engine_portfolio_history_aligns_sparklines),
    TEST(test_engine_refresh_prices_is_one_request),
    TEST(test_chart_svg_rising_is_green_with_breaks_and_labels),
    TEST(test_chart_svg_falling_is_red_and_empty_says_no_data),
    TEST(test_chart_svg_rejects_bad_input),
    TEST(test_chart_functions_reject_null_arguments),
    TEST(test_engine_chart_download_reports_progress),
    /* test_chart_axes.c */
    TEST(test_chart_svg_value_ticks_of_several_magnitudes),
    TEST(test_chart_svg_flat_series_and_single_point),
    TEST(test_chart_svg_all_partial_series_is_dashed_with_a_note),
    TEST(test_chart_svg_partial_week_is_scaled_by_its_complete_points),
    TEST(test_chart_svg_time_ticks_are_utc_whatever_tz_says),
    TEST(test_store_refuses_an_id_with_a_comma),
    /* test_engine.c */
    TEST(test_engine_statistics_before_any_data_is_no_data),
    TEST(test_engine_portfolio_value_example),
    TEST(test_engine_empty_portfolio_is_zero_without_change),
    TEST(test_engine_portfolio_works_without_snapshot),
    TEST(test_engine_portfolio_has_one_wire_shape),
    TEST(test_engine_search_does_not_change_portfolio_value),
    TEST(test_engine_coins_sorting_and_paging),
    TEST(test_engine_coins_have_every_key),
    TEST(test_engine_refresh_request_counts),
    TEST(test_engine_refresh_tops_up_held_coin_outside_first_page),
    TEST(test_engine_statistics_after_refresh),
    TEST(test_engine_coin_detail_is_lazy_and_cached),
    TEST(test_engine_coin_detail_missing_price_prints_na),
    TEST(test_engine_concurrent_detail_requests_share_one),
    TEST(test_engine_failed_refresh_keeps_snapshot),
    TEST(test_engine_snapshot_survives_reopen_offline),
    TEST(test_engine_and_client_open_with_null_config),
    TEST(test_engine_metrics_count_every_attempt),
    TEST(test_engine_vs_currency_eur),
    /* test_offline.c */
    TEST(test_offline_as_of_is_the_data_time_not_the_load_time),
    TEST(test_offline_live_refresh_is_fresh),
    TEST(test_offline_snapshots_are_kept_per_currency),
    TEST(test_offline_portfolio_carries_unpriced_holdings),
    TEST(test_offline_coin_statistics_from_the_snapshot_alone),
    TEST(test_offline_saved_detail_and_stale_fallback),
    TEST(test_store_set_holdings_all_or_nothing),
    TEST(test_engine_set_holdings_in_one_call),
    TEST(test_offline_schema_v1_database_opens_with_holdings_and_snapshot),
    /* test_ledger.c */
    TEST(test_ledger_worked_example_fifo),
    TEST(test_ledger_worked_example_average),
    TEST(test_ledger_worked_example_lifo),
    TEST(test_ledger_shortfall_is_refused_with_details),
    TEST(test_ledger_bad_input_changes_nothing),
    TEST(test_ledger_csv_edge_cases),
    TEST(test_ledger_csv_export_import_round_trip),
    TEST(test_ledger_portfolios),
    TEST(test_ledger_migrates_schema_v1_fixture),
    TEST(test_store_ledger_never_negative_through_positions),
    TEST(test_ledger_import_reports_progress),
    /* test_returns.c */
    TEST(test_engine_returns_uk_example),
    TEST(test_engine_returns_uk_same_day),
    TEST(test_engine_returns_holding_periods),
    TEST(test_engine_returns_moved_lot),
    TEST(test_engine_returns_rows_and_csv),
    TEST(test_engine_returns_spec_example),
    TEST(test_engine_returns_performance),
    TEST(test_engine_returns_performance_asked_again),
    TEST(test_engine_returns_bad_options),
    /* test_import.c */
    TEST(test_engine_import_coinbase_convert_is_a_trade),
    TEST(test_engine_import_binance_statement_group_with_bnb_fee),
    TEST(test_engine_import_kraken_codes_and_staking),
    TEST(test_engine_import_overlapping_export),
    TEST(test_engine_import_ambiguous_symbol),
    TEST(test_engine_import_broken_cell_and_unknown_header),
    TEST(test_engine_import_dry_run),
    TEST(test_engine_import_pending_rows_filled_and_euros_converted),
    /* test_ledger_history.c */
    TEST(test_engine_ledger_history_fee_in_bnb),
    TEST(test_engine_ledger_history_swap),
    TEST(test_engine_ledger_history_move),
    TEST(test_engine_ledger_history_lot_orders),
    TEST(test_engine_ledger_history_groups_are_deleted_and_refused_whole),
    TEST(test_engine_ledger_history_bad_input_changes_nothing),
    TEST(test_engine_ledger_history_exact_money_and_income),
    TEST(test_engine_ledger_history_csv_round_trip),
    /* test_harden.c */
    TEST(test_strict_json_at_every_entry_point),
    TEST(test_created_database_files_are_owner_only),
    TEST(test_dangling_link_target_is_created_owner_only),
    TEST(test_client_key_only_to_a_loopback_address),
    TEST(test_client_errors_never_hold_six_key_characters),
    TEST(test_client_body_over_max_body_bytes_is_body_too_large),
    TEST(test_client_hex_retry_after_is_ignored),
    TEST(test_client_remembers_a_long_retry_after),
    TEST(test_engine_metrics_count_suppressed_requests),
    TEST(test_client_error_classes),
    /* test_client_edges.c */
    TEST(test_client_error_code_in_every_shape),
    TEST(test_client_asks_for_full_precision),
    TEST(test_client_compression_bomb_is_body_too_large),
    TEST(test_client_loopback_never_goes_through_a_proxy),
    /* test_ledger_edges.c */
    TEST(test_edges_transaction_note_null_comes_back_null),
    TEST(test_edges_csv_number_with_a_comma_says_what_it_is),
    TEST(test_edges_exported_cells_cannot_run_as_formulas),
    /* test_progress.c */
    TEST(test_progress_five_page_refresh_reports_every_page),
    TEST(test_progress_null_function_turns_it_off),
    TEST(test_progress_null_engine_is_invalid_argument),
    TEST(test_progress_nested_refresh_work_is_refused_not_a_crash),
    /* test_header.c */
    TEST(test_status_names_are_the_headers),
    TEST(test_abi_version_is_the_headers),
    TEST(test_reasons_are_the_headers),
    TEST(test_detail_keys_are_the_headers),
    TEST(test_the_chart_reader_is_strict),
    TEST(test_the_transaction_reader_is_strict),
    /* test_edges.c */
    TEST(test_edges_format_value_per_currency),
    TEST(test_edges_format_price_per_currency),
    TEST(test_edges_engine_values_in_the_currencys_precision),
    TEST(test_edges_unknown_change_is_left_out_with_coverage),
    TEST(test_edges_coin_at_zero_after_minus_100_percent),
    TEST(test_edges_numbers_sent_as_strings),
    TEST(test_edges_global_and_detail_warnings),
    TEST(test_edges_row_needs_only_its_id),
    TEST(test_edges_html_description_keeps_bare_brackets),
    TEST(test_edges_load_of_no_coin_replaces_nothing),
    TEST(test_edges_refresh_with_empty_first_page_keeps_snapshot),
    TEST(test_edges_search_normalized_case_folded_diacritic_insensitive),
    TEST(test_edges_holding_ids_with_upper_case_or_spaces),
    /* test_postgres.c */
    TEST(test_store_two_owners_never_see_each_others_rows),
    TEST(test_engine_two_owners_share_the_snapshot_never_the_portfolio),
    TEST(test_engine_saved_sparklines_read_back_exactly_by_every_owner),
    TEST(test_engine_shared_second_refresh_within_max_age_sends_nothing),
    TEST(test_engine_shared_refreshes_at_once_send_one_set_of_requests),
    TEST(test_engine_shared_snapshot_seen_by_another_engine_on_its_next_query),
    TEST(test_engine_shared_owners_never_see_each_others_ledgers),
    TEST(test_engine_shared_read_database_beside_sqlite_is_refused),
    TEST(test_engine_shared_read_database_own_writes_and_failover),
    TEST(test_engine_shared_prepare_false_is_accepted),
    TEST(test_engine_memory_answers_as_a_database_and_its_reopening),
    TEST(test_store_open_v2_rejects_bad_config),
    TEST(test_store_postgres_password_never_in_errors),
    TEST(test_store_postgres_ambiguous_url_refused),
    TEST(test_store_postgres_password_with_delimiters_never_in_errors),
    TEST(test_store_unsupported_url_is_refused_not_a_path),
    TEST(test_store_open_v2_rejects_bad_database_timeouts),
    TEST(test_store_postgres_lock_held_elsewhere_times_out),
};

int main(int argc, char **argv) {
    struct CMUnitTest selected[sizeof tests / sizeof tests[0]];
    size_t i, count = 0;
    if (tf_parse_arguments(argc, argv) != 0)
        return 2;
    for (i = 0; i < sizeof tests / sizeof tests[0]; i++)
        if (tf_selected(tests[i].name))
            selected[count++] = tests[i];
    /* cmocka_run_group_tests_name() with the selected tests (the macro needs an array's size) */
    return _cmocka_run_group_tests("coinfolio", selected, count, tf_group_setup,
                                   tf_group_teardown) == 0
               ? 0
               : 1;
}
